// The host-side mailbox alone: in-flight window, order after requeue, and crash blame on the oldest unacked message.
import t from 'tap';
import { Mailbox } from '../../../supervisors/runtime/mailbox.js';

t.test('the mailbox keeps unacked messages in order and blames the one being handled', async (t) => {
  const box = new Mailbox<string>(2, 10, 2);
  for (const m of ['a', 'b', 'c']) box.push(m);
  t.same([box.takeNext()?.msg, box.takeNext()?.msg, box.takeNext()], ['a', 'b', undefined], 'window of 2');
  t.equal(box.depth(), 3);

  t.same(box.requeue(true), { redelivered: 2 }, 'first crash: a blamed once, kept');
  t.same([box.takeNext()?.msg, box.takeNext()?.msg], ['a', 'b'], 'redelivered first, in order');
  box.push('d');

  const { poisoned, redelivered } = box.requeue(true);
  t.equal(poisoned?.msg, 'a', 'second crash on a: dropped');
  t.equal(poisoned?.attempts, 2);
  t.equal(redelivered, 1);
  const next = box.takeNext();
  t.same([next?.msg, next?.crashes], ['b', 0], 'b was only waiting behind a: not blamed');
  t.equal(box.ack(next!.seq)?.msg, 'b');
  t.same(box.requeue(false), { redelivered: 0 }, 'a clean exit blames nobody');
  t.equal(box.takeNext()?.msg, 'c');
  t.equal(box.takeNext()?.msg, 'd');
});

t.test('a full mailbox refuses messages', async (t) => {
  const box = new Mailbox<number>(8, 2, 3);
  t.ok(box.push(1));
  t.ok(box.push(2));
  t.equal(box.push(3), undefined);
  t.ok(box.full());
});
