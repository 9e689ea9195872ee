// use-lite int8 keeps its accuracy on a CPU without AVX-512 or VNNI: the int8 embedding runs under qemu-user
// emulating a Haswell (AVX2 only), where onnxruntime's u8×s8 kernel saturates (the r1 model fell to min cosine 0.966
// on such a CPU), and is compared with fp32 vectors computed natively. qemu-user comes from Debian (make test-deps).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { ensureUseLiteModelFile } from '../../actors/embedder/use-lite/build-onnx.js';
import { createUseLiteProvider } from '../../actors/embedder/use-lite/provider.js';
import { rustBookChunks } from '../helpers/corpora.js';

const run = promisify(execFile);
const QEMU = '/usr/bin/qemu-x86_64';
const CHILD = path.join(import.meta.dirname, 'helpers', 'int8-on-this-cpu.js');

interface ChildOut {
  probe: { exact: boolean; expected: number; got: [number, number] };
  format: string;
  version: string;
  vectors: number[][];
}

const onX64 = os.arch() === 'x64';
t.test(
  'int8 vectors stay within cosine 0.998 of fp32 on an emulated AVX2-only CPU',
  { skip: onX64 ? false : `the emulated CPU is x86-64; this is ${os.arch()}` },
  async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'memvault-int8-avx2-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const texts = rustBookChunks(48);
    writeFileSync(path.join(dir, 'texts.json'), JSON.stringify(texts));
    // Built natively: the builder is plain JS and would take minutes under emulation; the file is the same bytes.
    await ensureUseLiteModelFile(dir, { format: 'int8u8' });
    const fp32 = await createUseLiteProvider({ cacheDir: dir });
    const reference = await fp32.embed(texts);
    await fp32.close();

    let stdout: string;
    try {
      ({ stdout } = await run(QEMU, ['-cpu', 'Haswell-v4', process.execPath, CHILD, dir, path.join(dir, 'texts.json')], {
        maxBuffer: 64 * 1024 * 1024,
      }));
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { stderr?: string };
      if (e.code === 'ENOENT') throw new Error(`${QEMU} is missing: \`make test-deps\` installs Debian's qemu-user`);
      throw new Error(
        `the emulated run failed: ${e.message}\n${(e.stderr ?? '')
          .split('\n')
          .filter((l) => !l.includes('TCG doesn'))
          .join('\n')}`,
      );
    }
    const out = JSON.parse(stdout) as ChildOut;
    t.equal(out.probe.exact, false, 'the emulated CPU really takes the saturating u8×s8 path');
    t.ok(out.probe.got[1] < out.probe.expected * 0.6, `its u8×s8 probe clips (${out.probe.got[1].toFixed(1)} for ${out.probe.expected})`);
    t.equal(out.format, 'int8u8', 'so the weights are stored for the exact u8×u8 kernel');
    t.equal(out.version, '0.2.0-int8-r2', 'the same identity as on a VNNI CPU');

    const cosines = reference.map((v, i) => v.reduce((s, x, j) => s + x * out.vectors[i]![j]!, 0));
    const min = Math.min(...cosines);
    const mean = cosines.reduce((s, c) => s + c, 0) / cosines.length;
    t.comment(`emulated AVX2: int8 vs fp32 over ${texts.length} chunks: min cosine ${min.toFixed(5)}, mean ${mean.toFixed(5)}`);
    t.ok(min >= 0.998, `every chunk keeps cosine ≥ 0.998 (min ${min.toFixed(5)})`);
    t.ok(mean >= 0.999, `mean cosine ≥ 0.999 (${mean.toFixed(5)})`);
  },
);
