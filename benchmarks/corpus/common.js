// Shared helpers for the corpus ground-truth scripts.
'use strict';
const fs = require('fs');
const path = require('path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

// A small seeded generator, so that run i with seed i is the same run on every machine.
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// --name value pairs (numbers where the default is a number) and positional arguments.
function parseArgs(argv, defaults) {
  const out = { ...defaults, _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const key = a.slice(2);
      const value = argv[i + 1];
      i += 1;
      out[key] = typeof defaults[key] === 'number' ? Number(value) : value;
    } else {
      out._.push(a);
    }
  }
  if (out._.length === 0) {
    process.stderr.write('usage: <script> corpus/<format>/<slug> [options]\n');
    process.exit(2);
  }
  return out;
}

function repoRelative(p) {
  return path.relative(REPO_ROOT, path.resolve(p)).split(path.sep).join('/');
}

function writeTruth(dir, truth) {
  const file = path.join(dir, 'truth.json');
  fs.writeFileSync(file, JSON.stringify(truth, null, 1) + '\n');
  process.stdout.write(`${repoRelative(file)}: ${truth.elapsed_seconds} s\n`);
}

module.exports = { REPO_ROOT, mulberry32, parseArgs, repoRelative, writeTruth };
