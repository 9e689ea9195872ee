// A tiny ONNX graph writer for the use-lite builder and the int8 kernel probe: nodes, initializers, dense layers.
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';

const { onnx } = onnxProto;
export { onnx };

/**
 * How a dense layer stores its weights. fp32: MatMul + Add. int8s8 / int8u8: DynamicQuantizeMatMul with the same
 * symmetric per-column int8 values, stored signed (zero point 0) or unsigned (value + 128, zero point 128). Both
 * encodings hold the same integers, so an exact kernel gives the same sums for either; which one onnxruntime runs
 * exactly depends on the CPU (see int8-kernel.ts).
 */
export type WeightFormat = 'fp32' | 'int8s8' | 'int8u8';

/** An attribute: a number is an INT, an array INTS, `{ f }` a FLOAT. */
type AttrValue = number | number[] | { f: number };

type TensorData = Float32Array | BigInt64Array | Int8Array | Uint8Array;

export class GraphWriter {
  readonly nodes: Onnx.INodeProto[] = [];
  readonly initializers: Onnx.ITensorProto[] = [];
  #n = 0;

  constructor(readonly format: WeightFormat) {}

  op(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, domain = '', outputs = 1): string[] {
    const name = `${opType}_${this.#n++}`;
    const out = Array.from({ length: outputs }, (_, i) => `${name}:${i}`);
    const attribute = Object.entries(attrs).map(([key, v]) => {
      if (Array.isArray(v)) return { name: key, type: onnx.AttributeProto.AttributeType.INTS, ints: v };
      if (typeof v === 'number') return { name: key, type: onnx.AttributeProto.AttributeType.INT, i: v };
      return { name: key, type: onnx.AttributeProto.AttributeType.FLOAT, f: v.f };
    });
    this.nodes.push({ name, opType, domain, input: inputs, output: out, attribute });
    return out;
  }

  one(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, domain = ''): string {
    return this.op(opType, inputs, attrs, domain, 1)[0]!;
  }

  tensor(name: string, dims: number[], data: TensorData): string {
    const dataType =
      data instanceof Float32Array
        ? onnx.TensorProto.DataType.FLOAT
        : data instanceof BigInt64Array
          ? onnx.TensorProto.DataType.INT64
          : data instanceof Int8Array
            ? onnx.TensorProto.DataType.INT8
            : onnx.TensorProto.DataType.UINT8;
    const rawData = new Uint8Array(data.buffer, data.byteOffset, data.byteLength); // little-endian, as ONNX wants
    this.initializers.push({ name, dims, dataType, rawData });
    return name;
  }

  floatConst(name: string, values: number[], dims: number[] = [values.length]): string {
    return this.tensor(name, dims, Float32Array.from(values));
  }

  intConst(name: string, values: number[]): string {
    return this.tensor(name, [values.length], BigInt64Array.from(values.map(BigInt)));
  }

  /** x·W + b for a constant W [k, n], in this writer's weight format. */
  dense(x: string, name: string, w: Float32Array, k: number, n: number, bias: Float32Array): string {
    if (w.length !== k * n || bias.length !== n) throw new Error(`${name}: weight is not [${k}, ${n}]`);
    const b = this.tensor(`${name}/bias`, [n], bias);
    if (this.format === 'fp32') {
      const W = this.tensor(`${name}/kernel`, [k, n], w);
      return this.one('Add', [this.one('MatMul', [x, W]), b]);
    }
    const { q, scales } = quantizeColumns(w, k, n);
    const s = this.tensor(`${name}/kernel_scale`, [n], scales);
    let W: string;
    let zp: string;
    if (this.format === 'int8s8') {
      W = this.tensor(`${name}/kernel_int8`, [k, n], q);
      zp = this.tensor(`${name}/kernel_zero_point`, [n], new Int8Array(n));
    } else {
      W = this.tensor(
        `${name}/kernel_uint8`,
        [k, n],
        Uint8Array.from(q, (v) => v + 128),
      );
      zp = this.tensor(`${name}/kernel_zero_point`, [n], new Uint8Array(n).fill(128));
    }
    return this.one('DynamicQuantizeMatMul', [x, W, s, zp, b], {}, 'com.microsoft');
  }

  /** The model bytes: float inputs/outputs are declared by name, element type and shape (a string is a free dim). */
  encode(opts: {
    name: string;
    producerVersion: string;
    docString: string;
    inputs: Array<{ name: string; type: number; shape: Array<string | number> }>;
    outputs: Array<{ name: string; type: number; shape: Array<string | number> }>;
  }): Uint8Array {
    const info = (v: { name: string; type: number; shape: Array<string | number> }): Onnx.IValueInfoProto => ({
      name: v.name,
      type: {
        tensorType: { elemType: v.type, shape: { dim: v.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } },
      },
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'memvault use-lite builder',
      producerVersion: opts.producerVersion,
      modelVersion: 1,
      docString: opts.docString,
      opsetImport: [{ domain: '', version: 17 }, ...(this.format === 'fp32' ? [] : [{ domain: 'com.microsoft', version: 1 }])],
      graph: {
        name: opts.name,
        node: this.nodes,
        initializer: this.initializers,
        input: opts.inputs.map(info),
        output: opts.outputs.map(info),
      },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

/** Symmetric int8 per output column: w ≈ q·scale, |q| ≤ 127, zero point 0. */
function quantizeColumns(w: Float32Array, k: number, n: number): { q: Int8Array; scales: Float32Array } {
  const scales = new Float32Array(n);
  for (let j = 0; j < n; j++) {
    let max = 0;
    for (let i = 0; i < k; i++) max = Math.max(max, Math.abs(w[i * n + j]!));
    scales[j] = max > 0 ? max / 127 : 1;
  }
  const q = new Int8Array(k * n);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < n; j++) q[i * n + j] = Math.max(-127, Math.min(127, Math.round(w[i * n + j]! / scales[j]!)));
  }
  return { q, scales };
}
