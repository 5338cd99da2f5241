// The floor any JavaScript hook pays on a request: JSON.parse of the bytes and JSON.stringify of the children.
//   node scripts/baselines/floor.js FILE [runs]      prints the median in ms
'use strict';
const fs = require('fs');
const bytes = fs.readFileSync(process.argv[2]);
const runs = Number(process.argv[3] || 9);
const times = [];
for (let i = 0; i < runs + 2; i++) {
  const t = process.hrtime.bigint();
  const req = JSON.parse(bytes);
  JSON.stringify({ children: Object.values(req.children['Pod.v1'] || {}) });
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
const warm = times.slice(2).sort((a, b) => a - b);
console.log(warm[Math.floor(warm.length / 2)].toFixed(1));
