// The few ONNX protobuf messages a model needs (onnx.proto3's field numbers), encoded with
// protobufjs: enough to hand onnxruntime a graph built in memory.
import protobuf from 'protobufjs';

const repeated = (type: string, id: number) => ({ rule: 'repeated', type, id });
const root = protobuf.Root.fromJSON({
  nested: {
    ModelProto: { fields: { irVersion: { type: 'int64', id: 1 }, producerName: { type: 'string', id: 2 }, graph: { type: 'GraphProto', id: 7 }, opsetImport: repeated('OperatorSetIdProto', 8) } },
    OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
    GraphProto: { fields: { node: repeated('NodeProto', 1), name: { type: 'string', id: 2 }, initializer: repeated('TensorProto', 5), input: repeated('ValueInfoProto', 11), output: repeated('ValueInfoProto', 12) } },
    NodeProto: { fields: { input: repeated('string', 1), output: repeated('string', 2), name: { type: 'string', id: 3 }, opType: { type: 'string', id: 4 }, attribute: repeated('AttributeProto', 5) } },
    AttributeProto: { fields: { name: { type: 'string', id: 1 }, f: { type: 'float', id: 2 }, i: { type: 'int64', id: 3 }, ints: repeated('int64', 8), type: { type: 'int32', id: 20 } } },
    TensorProto: { fields: { dims: repeated('int64', 1), dataType: { type: 'int32', id: 2 }, name: { type: 'string', id: 8 }, rawData: { type: 'bytes', id: 9 } } },
    ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
    TypeProto: { fields: { tensorType: { type: 'TensorTypeProto', id: 1 } } },
    TensorTypeProto: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
    TensorShapeProto: { fields: { dim: repeated('Dimension', 1) } },
    Dimension: { fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } } },
  },
});
const Model = root.lookupType('ModelProto');

export type Attr = number | number[];
export interface OnnxNode {
  opType: string;
  input: string[];
  output: string[];
  attrs?: Record<string, Attr>;
}
export interface OnnxInit {
  name: string;
  dims: number[];
  data: Float32Array | BigInt64Array;
}
export interface OnnxIo {
  name: string;
  /** Numbers are fixed sizes, strings name a dynamic axis. */
  dims: (number | string)[];
}

const FLOAT = 1;
const INT64 = 7;
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_INTS = 7;

function attribute(name: string, v: Attr) {
  if (Array.isArray(v)) return { name, ints: v, type: ATTR_INTS };
  return Number.isInteger(v) ? { name, i: v, type: ATTR_INT } : { name, f: v, type: ATTR_FLOAT };
}

const valueInfo = (io: OnnxIo) => ({
  name: io.name,
  type: { tensorType: { elemType: FLOAT, shape: { dim: io.dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
});

/** A float graph's ModelProto bytes (opset 17). Attribute values that are whole numbers are ints. */
export function encodeModel(g: { name: string; nodes: OnnxNode[]; initializers: OnnxInit[]; inputs: OnnxIo[]; outputs: OnnxIo[] }): Uint8Array {
  return Model.encode(
    Model.create({
      irVersion: 8,
      producerName: 'rhizome',
      opsetImport: [{ domain: '', version: 17 }],
      graph: {
        name: g.name,
        node: g.nodes.map((n, i) => ({ opType: n.opType, input: n.input, output: n.output, name: `${n.opType}_${i}`, attribute: Object.entries(n.attrs ?? {}).map(([k, v]) => attribute(k, v)) })),
        initializer: g.initializers.map((t) => ({
          name: t.name,
          dims: t.dims,
          dataType: t.data instanceof Float32Array ? FLOAT : INT64,
          rawData: new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength),
        })),
        input: g.inputs.map(valueInfo),
        output: g.outputs.map(valueInfo),
      },
    }),
  ).finish();
}
