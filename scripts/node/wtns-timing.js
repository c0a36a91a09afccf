// Times snarkjs's witness calculation kept warm in one node process, as a JavaScript service would run it: the
// calculator built once (circom_runtime's WitnessCalculatorBuilder, what `snarkjs wtns calculate` uses), then
// calculateWTNSBin RUNS times on one input. Prints one JSON line: build and per-run milliseconds, peak RSS.
//
// Usage: NODE_PATH=.fixtures/node_modules node scripts/node/wtns-timing.js circuit.wasm input.json RUNS
"use strict";
const fs = require("fs");
const { WitnessCalculatorBuilder } = require("circom_runtime");
const { utils } = require("ffjavascript");

async function main() {
  const [wasm, inputFile, runs] = process.argv.slice(2);
  const input = utils.unstringifyBigInts(JSON.parse(fs.readFileSync(inputFile, "utf8")));
  let t = process.hrtime.bigint();
  const calculator = await WitnessCalculatorBuilder(fs.readFileSync(wasm));
  const buildMs = Number(process.hrtime.bigint() - t) / 1e6;
  const ms = [];
  let rss = process.memoryUsage().rss;
  for (let i = 0; i < Number(runs); i++) {
    t = process.hrtime.bigint();
    await calculator.calculateWTNSBin(input);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    rss = Math.max(rss, process.memoryUsage().rss);
  }
  console.log(JSON.stringify({ buildMs, ms, rss }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
