// The toolchain works: strict TypeScript compiles and tap runs the compiled test.
import t from 'tap';
import { assertNever } from '../../messages/common.js';

t.test('assertNever throws on an unhandled message', async (t) => {
  t.throws(() => assertNever('x' as never));
});
