// Universal Sentence Encoder lite as an ONNX graph, from the same weights TF.js runs. The
// TF.js graph (model.json) is a two-layer pre-norm Transformer over SentencePiece ids:
//   x0 = 2·embedding + timing signal      (the graph adds the timing signal to a gathered
//                                          copy of the embeddings, then adds both copies)
//   layer 0: 4 heads × 64 on 256 wide; the residual is widened to 512 by a dense layer
//   layer 1: 4 heads × 128 on 512 wide; both FFNs 512 → 1536 (ReLU) → 512
//   mean over the tokens, tanh dense 512 → 512, L2 normalised (normalised by the caller).
// The embedding lookup and timing signal are done in JS (inputs.ts), so the graph takes
// x0 [B, L, 256], the attention bias for padding [B, 1, 1, L] and the pooling weights
// [B, L, 1]. Padding rows are computed but never reach a real token: keys at padding get
// the bias, and the pooling weight there is 0. Checked against TF.js in
// test/embed/use-lite-onnx.e2e.test.ts (same vectors to ~2e-6).
import { encodeModel, type OnnxInit, type OnnxNode } from './onnx-proto.js';
import { tensor, USE_SCOPE as P, type UseTensor } from './weights.js';

const M = 'module/Encoder_en/KonaTransformer/';

export function useLiteOnnx(weights: Map<string, UseTensor>): Uint8Array {
  const nodes: OnnxNode[] = [];
  const inits = new Map<string, OnnxInit>();
  let n = 0;
  const op = (opType: string, input: string[], attrs?: Record<string, number | number[]>, outputs = 1): string[] => {
    const output = Array.from({ length: outputs }, (_, i) => `t${n}_${i}`);
    n++;
    nodes.push({ opType, input, output, attrs });
    return output;
  };
  const op1 = (opType: string, input: string[], attrs?: Record<string, number | number[]>) => op(opType, input, attrs)[0];
  const ints = (name: string, values: number[]) => {
    inits.set(name, { name, dims: [values.length], data: BigInt64Array.from(values.map(BigInt)) });
    return name;
  };
  const scalar = (name: string, value: number) => {
    inits.set(name, { name, dims: [], data: Float32Array.of(value) });
    return name;
  };
  /** A TF weight as an initializer, optionally reshaped (conv kernels [1,1,in,out] → [in,out]). */
  const weight = (tfName: string, dims?: number[]) => {
    const t = tensor(weights, tfName);
    inits.set(tfName, { name: tfName, dims: dims ?? t.shape, data: t.data as Float32Array });
    return tfName;
  };
  const dense = (x: string, kernel: string, bias: string, dims?: number[]) => op1('Add', [op1('MatMul', [x, weight(kernel, dims)]), weight(bias)]);
  const layerNorm = (x: string, scope: string) =>
    op1('LayerNormalization', [x, weight(`${P}Encode/${scope}/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`), weight(`${P}Encode/${scope}/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`)], {
      axis: -1,
      epsilon: tensor(weights, `${P}Encode/TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`).data[0],
    });

  const layer = (x: string, i: number, width: number, heads: number, residual: string) => {
    const L = `Layer_${i}/TransformerLayer`;
    const headDim = width / heads;
    const scale = tensor(weights, `${P}Encode/TransformerStack/${L}/MultiheadAttention/mul/y`).data[0];
    const qkv = dense(layerNorm(x, L), `${M}Encode/${L}/MultiheadAttention/qkv_transform_single/kernel/part_0`, `${P}Encode/${L}/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`, [tensor(weights, `${M}Encode/${L}/MultiheadAttention/qkv_transform_single/kernel/part_0`).shape[2], 3 * width]);
    const [q, k, v] = op('Split', [qkv, ints(`split_${width}`, [width, width, width])], { axis: -1 }, 3);
    const heads4 = ints(`heads_${width}`, [0, 0, heads, headDim]);
    const split = (t: string, perm: number[]) => op1('Transpose', [op1('Reshape', [t, heads4])], { perm });
    const scores = op1('Add', [op1('MatMul', [op1('Mul', [split(q, [0, 2, 1, 3]), scalar(`scale_${i}`, scale)]), split(k, [0, 2, 3, 1])]), 'bias']);
    const attended = op1('MatMul', [op1('Softmax', [scores], { axis: -1 }), split(v, [0, 2, 1, 3])]);
    const merged = op1('Reshape', [op1('Transpose', [attended], { perm: [0, 2, 1, 3] }), ints(`merge_${width}`, [0, 0, width])]);
    const out = dense(merged, `${M}Encode/${L}/MultiheadAttention/output_transform_single/kernel/part_0`, `${P}Encode/${L}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`, [width, 512]);
    const x1 = op1('Add', [out, residual]);
    const hidden = op1('Relu', [dense(layerNorm(x1, `${L}/FFN`), `${P}Encode/TransformerStack/${L}/FFN/conv1/Tensordot/Reshape_1`, `${P}Encode/${L}/FFN/conv1/bias/ConcatPartitions/concat`)]);
    return op1('Add', [dense(hidden, `${P}Encode/TransformerStack/${L}/FFN/conv2/Tensordot/Reshape_1`, `${P}Encode/${L}/FFN/conv2/bias/ConcatPartitions/concat`), x1]);
  };

  const widened = dense('x0', `${P}Encode/Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat`, `${P}Encode/Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat`);
  const x2 = layer('x0', 0, 256, 4, widened);
  const x4 = layer(x2, 1, 512, 4, x2);
  const pooled = op1('ReduceSum', [op1('Mul', [x4, 'poolw']), ints('axis_1', [1])], { keepdims: 0 });
  const out = op1('Tanh', [dense(pooled, 'module/Encoder_en/hidden_layers/tanh_layer_0/weights', 'module/Encoder_en/hidden_layers/tanh_layer_0/bias')]);
  nodes.push({ opType: 'Identity', input: [out], output: ['embedding'] });
  return encodeModel({
    name: 'use-lite',
    nodes,
    initializers: [...inits.values()],
    inputs: [
      { name: 'x0', dims: ['B', 'L', 256] },
      { name: 'bias', dims: ['B', 1, 1, 'L'] },
      { name: 'poolw', dims: ['B', 'L', 1] },
    ],
    outputs: [{ name: 'embedding', dims: ['B', 512] }],
  });
}
