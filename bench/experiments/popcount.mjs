const N = 100000, W = 16;
const bits = new Uint32Array(N * W).map(() => (Math.random() * 2 ** 32) >>> 0);
const qb = bits.slice(0, W);
const T = new Uint8Array(65536); for (let i = 1; i < 65536; i++) T[i] = (i & 1) + T[i >>> 1];
function swar(x) { x -= (x >>> 1) & 0x55555555; x = (x & 0x33333333) + ((x >>> 2) & 0x33333333); return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24; }
function a() { const d = new Uint16Array(N); for (let s = 0, o = 0; s < N; s++, o += W) { let h = 0; for (let j = 0; j < W; j++) h += swar(bits[o + j] ^ qb[j]); d[s] = h; } return d; }
function b() { const d = new Uint16Array(N); for (let s = 0, o = 0; s < N; s++, o += W) { let h = 0; for (let j = 0; j < W; j++) { const x = bits[o + j] ^ qb[j]; h += T[x & 0xffff] + T[x >>> 16]; } d[s] = h; } return d; }
function c() { const d = new Uint16Array(N); const q0=qb[0],q1=qb[1],q2=qb[2],q3=qb[3],q4=qb[4],q5=qb[5],q6=qb[6],q7=qb[7],q8=qb[8],q9=qb[9],q10=qb[10],q11=qb[11],q12=qb[12],q13=qb[13],q14=qb[14],q15=qb[15];
  for (let s = 0, o = 0; s < N; s++, o += 16) { d[s] = swar(bits[o]^q0)+swar(bits[o+1]^q1)+swar(bits[o+2]^q2)+swar(bits[o+3]^q3)+swar(bits[o+4]^q4)+swar(bits[o+5]^q5)+swar(bits[o+6]^q6)+swar(bits[o+7]^q7)+swar(bits[o+8]^q8)+swar(bits[o+9]^q9)+swar(bits[o+10]^q10)+swar(bits[o+11]^q11)+swar(bits[o+12]^q12)+swar(bits[o+13]^q13)+swar(bits[o+14]^q14)+swar(bits[o+15]^q15); } return d; }
for (let r = 0; r < 3; r++) for (const [n, f] of [['swar', a], ['table', b], ['unrolled', c]]) { const t = performance.now(); for (let i = 0; i < 10; i++) f(); console.log(n, ((performance.now() - t) / 10).toFixed(2)); }
