// Computes many witnesses in one node process, with the code `snarkjs wtns calculate` runs (circom_runtime's
// WitnessCalculatorBuilder, then calculateWTNSBin: the .wtns file's bytes), so a test can compare its own witnesses
// with snarkjs's for many inputs without a node start per input.
//
// Usage: NODE_PATH=.fixtures/node_modules node scripts/node/wtns-batch.js batch.json
// batch.json: [{"wasm": "circuit.wasm", "inputs": [{...}, ...], "out": "dir"}, ...]; input i's witness goes to
// dir/i.wtns, or circom's error message to dir/i.error.
"use strict";
const fs = require("fs");
const { WitnessCalculatorBuilder } = require("circom_runtime");
const { utils } = require("ffjavascript");

async function main() {
  const jobs = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  for (const job of jobs) {
    const calculator = await WitnessCalculatorBuilder(fs.readFileSync(job.wasm));
    for (let i = 0; i < job.inputs.length; i++) {
      const out = `${job.out}/${i}`;
      try {
        fs.writeFileSync(`${out}.wtns`, await calculator.calculateWTNSBin(utils.unstringifyBigInts(job.inputs[i])));
      } catch (e) {
        fs.writeFileSync(`${out}.error`, String(e && e.message ? e.message : e));
      }
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
