// Which int8 kernel onnxruntime runs is read from the CPU flags (for `memvault doctor`), and on this machine the
// probe of the real kernel agrees with what the flags say.
import os from 'node:os';
import t from 'tap';
import { describeCpuFeatures, int8Format, kernelPaths, probeU8S8, readCpuInfo } from '../../actors/embedder/use-lite/int8-kernel.js';

const base = 'fpu sse sse2 ssse3 sse4_1 sse4_2 popcnt avx f16c fma bmi1 bmi2 avx2';
const AVX512 = 'avx512f avx512dq avx512cd avx512bw avx512vl';
const flags = (s: string): Set<string> => new Set(s.split(' '));

t.test('the u8×s8 path saturates without VNNI and is exact with it; u8×u8 is exact everywhere', async (t) => {
  const cases: Array<[string, string, string, boolean]> = [
    ['AMD EPYC (Zen 2/3), AVX2 only', base, 'avx2', false],
    ['Intel Skylake-SP: AVX-512 without VNNI', `${base} ${AVX512}`, 'avx512-core', false],
    ['Intel Cascade Lake: AVX-512 VNNI', `${base} ${AVX512} avx512_vnni`, 'avx512-vnni', true],
    ['Intel Alder Lake: AVX-VNNI, no AVX-512', `${base} avx_vnni`, 'avx-vnni', true],
    ['AMD EPYC (Zen 4): AVX-512 VNNI and AVX-VNNI', `${base} ${AVX512} avx512_vnni avx_vnni`, 'avx512-vnni', true],
    ['Intel Sapphire Rapids: AMX', `${base} ${AVX512} avx512_vnni avx_vnni amx_tile amx_int8`, 'amx', true],
  ];
  for (const [cpu, f, kernel, exact] of cases) {
    const p = kernelPaths(flags(f));
    t.ok(p.u8s8.name.startsWith(kernel), `${cpu}: u8×s8 runs ${p.u8s8.name}`);
    t.equal(p.u8s8.exact, exact, `${cpu}: u8×s8 ${exact ? 'is exact' : 'saturates'}`);
    t.equal(p.u8u8.exact, true, `${cpu}: u8×u8 is exact (${p.u8u8.name})`);
  }
  t.equal(describeCpuFeatures(flags(base)), 'avx2 yes, avx512 no, vnni no');
  t.equal(describeCpuFeatures(flags(`${base} ${AVX512} avx512_vnni`)), 'avx2 yes, avx512 yes (f bw dq vl), vnni yes (avx512_vnni)');
});

t.test('/proc/cpuinfo is read for the model name and flags', async (t) => {
  const info = readCpuInfo(
    'processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B12\nflags\t\t: fpu avx2 fma\n\nprocessor\t: 1\n',
  );
  t.equal(info?.model, 'AMD EPYC 7B12');
  t.same([...info!.flags], ['fpu', 'avx2', 'fma']);
  t.equal(readCpuInfo('nothing useful'), null);
});

t.test(
  'on this machine the probe of the real kernel agrees with the flags',
  { skip: os.platform() === 'linux' && os.arch() === 'x64' ? false : 'reads /proc/cpuinfo of an x86-64 Linux' },
  async (t) => {
    const cpu = readCpuInfo();
    t.ok(cpu, '/proc/cpuinfo is readable');
    const probe = await probeU8S8();
    const expected = kernelPaths(cpu!.flags).u8s8;
    t.comment(
      `${cpu!.model}: ${describeCpuFeatures(cpu!.flags)}; u8×s8 ${expected.name}; probe ${probe.got.join(', ')} for ${probe.expected}`,
    );
    t.equal(probe.exact, expected.exact, 'the probe finds the kernel the flags name');
    if (!probe.exact)
      t.ok(
        probe.got.some((v) => v < probe.expected * 0.6),
        'a saturating kernel clips the probe to about half',
      );
    t.equal(await int8Format(), probe.exact ? 'int8s8' : 'int8u8', 'the weights are stored for an exact kernel');
  },
);
