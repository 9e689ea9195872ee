// Child process for the emulated-CPU test: embeds texts with use-lite int8 on whatever CPU it runs on and prints
// the probe's verdict, the weight format and the vectors as JSON. Usage: node int8-on-this-cpu.js CACHE_DIR TEXTS.json
import { readFileSync } from 'node:fs';
import { useLiteModelFileName } from '../../../actors/embedder/use-lite/build-onnx.js';
import { int8Format, probeU8S8 } from '../../../actors/embedder/use-lite/int8-kernel.js';
import { createUseLiteProvider } from '../../../actors/embedder/use-lite/provider.js';

const [cacheDir, textsFile] = process.argv.slice(2);
if (!cacheDir || !textsFile) throw new Error('usage: int8-on-this-cpu.js CACHE_DIR TEXTS.json');
const texts = JSON.parse(readFileSync(textsFile, 'utf8')) as string[];
const provider = await createUseLiteProvider({ cacheDir, quantize: 'int8' });
const vectors = await provider.embed(texts);
await provider.close();
const format = await int8Format();
process.stdout.write(
  JSON.stringify({
    probe: await probeU8S8(),
    format,
    file: useLiteModelFileName(format),
    version: provider.info.version,
    vectors: vectors.map((v) => Array.from(v)),
  }),
);
