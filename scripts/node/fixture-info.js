#!/usr/bin/env node
// Prints, as JSON, the dimensions of a circom/snarkjs fixture read straight from the binary headers:
//   node fixture-info.js circuit.r1cs circuit.zkey witness.wtns
// r1cs section 1: n8, prime, nWires, nPubOut, nPubIn, nPrvIn, nLabels(u64), nConstraints
// zkey section 2 (groth16): n8q, q, n8r, r, nVars, nPublic, domainSize, ...
// wtns section 1: n8, prime, nWitness
// Containers are little-endian; sections are not necessarily in id order, so the table is scanned.
"use strict";
const fs = require("fs");

function sections(file, magic) {
  const b = fs.readFileSync(file);
  if (b.toString("latin1", 0, 4) !== magic) throw new Error(`${file}: magic is not ${magic}`);
  const n = b.readUInt32LE(8);
  const out = {};
  let p = 12;
  for (let i = 0; i < n; i++) {
    const type = b.readUInt32LE(p);
    const size = Number(b.readBigUInt64LE(p + 4));
    (out[type] = out[type] || []).push(b.subarray(p + 12, p + 12 + size));
    p += 12 + size;
  }
  return out;
}

function bigLE(buf) {
  let x = 0n;
  for (let i = buf.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(buf[i]);
  return x;
}

const [r1csFile, zkeyFile, wtnsFile] = process.argv.slice(2);
const info = {};

const r = sections(r1csFile, "r1cs")[1][0];
const n8 = r.readUInt32LE(0);
let o = 4 + n8;
info.prime = bigLE(r.subarray(4, 4 + n8)).toString();
info.nWires = r.readUInt32LE(o);
info.nOutputs = r.readUInt32LE(o + 4);
info.nPubInputs = r.readUInt32LE(o + 8);
info.nPrvInputs = r.readUInt32LE(o + 12);
info.nLabels = Number(r.readBigUInt64LE(o + 16));
info.nConstraints = r.readUInt32LE(o + 24);

const z = sections(zkeyFile, "zkey");
if (z[1][0].readUInt32LE(0) !== 1) throw new Error("zkey is not groth16");
const h = z[2][0];
const n8q = h.readUInt32LE(0);
o = 4 + n8q;
const n8r = h.readUInt32LE(o);
o += 4 + n8r;
info.nVars = h.readUInt32LE(o);
info.nPublic = h.readUInt32LE(o + 4);
info.domainSize = h.readUInt32LE(o + 8);
info.n8q = n8q;
info.n8r = n8r;

if (wtnsFile) {
  const w = sections(wtnsFile, "wtns")[1][0];
  info.nWitness = w.readUInt32LE(4 + w.readUInt32LE(0));
}

// Consistency checks (DESIGN.md §7).
const expectDomain = 2 ** (Math.floor(Math.log2(info.nConstraints + info.nPublic)) + 1);
const problems = [];
if (info.domainSize !== expectDomain) problems.push(`domainSize ${info.domainSize} != ${expectDomain}`);
if (info.nVars !== info.nWires) problems.push(`zkey nVars ${info.nVars} != r1cs nWires ${info.nWires}`);
if (info.nPublic !== info.nOutputs + info.nPubInputs) problems.push("nPublic != nOutputs + nPubInputs");
if (info.nWitness !== undefined && info.nWitness !== info.nWires) problems.push("wtns count != nWires");
if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
console.log(JSON.stringify(info, null, 2));
