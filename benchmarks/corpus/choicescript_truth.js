#!/usr/bin/env node
// Ground truth for a ChoiceScript story of corpus/choicescript/, from Choice of
// Games' own test tools (quicktest and randomtest of dfabulich/choicescript),
// never from storygraph.
//
//   CHOICESCRIPT_DIR=/work/tools/choicescript \
//   node benchmarks/corpus/choicescript_truth.js corpus/choicescript/<slug> [--runs 1000] [--timeout 600]
//
// ChoiceScript's code is not ours to commit: it is unpacked outside the
// repository (see benchmarks/corpus/README.md) and CHOICESCRIPT_DIR points at
// it. The story folder (the one holding startup.txt) is linked in as the game
// web/corpus-<slug>/scenes, then:
// 1. quicktest (node quicktest.js corpus-<slug>): every line, both ways of every
//    *if, every #option; its verdict, errors and the lines it calls uncovered.
// 2. randomtest (node randomtest.js num=N game=corpus-<slug> seed=S
//    showCoverage=true): N random plays. randomtest stops at the first failing
//    play; this script records the failure (seed, scene, line, message) and
//    goes on from the next seed, up to 20 failures, so that N plays are made in
//    all. Coverage (how many plays reached each line) is printed by randomtest
//    only when a whole segment passes: it is taken from the last segment, whose
//    seeds are recorded.
// Writes <story>/truth.json.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { parseArgs, writeTruth, repoRelative } = require('./common');

const TOOL_DIR = path.resolve(process.env.CHOICESCRIPT_DIR || '/work/tools/choicescript');
const MAX_FAILURES = 20;

function toolCommit() {
  const git = spawnSync('git', ['-C', TOOL_DIR, 'rev-parse', 'HEAD'], { encoding: 'utf-8' });
  if (git.status === 0) return git.stdout.trim();
  const file = path.join(TOOL_DIR, '.corpus-commit');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf-8').trim() : null;
}

function run(args, timeoutSeconds) {
  const started = Date.now();
  const res = spawnSync('node', args, { cwd: TOOL_DIR, encoding: 'utf-8', timeout: timeoutSeconds * 1000, maxBuffer: 512 * 1024 * 1024 });
  return {
    exit_code: res.status,
    timed_out: res.error ? res.error.code === 'ETIMEDOUT' : false,
    output: (res.stdout || '') + (res.stderr || ''),
    seconds: Number(((Date.now() - started) / 1000).toFixed(2)),
  };
}

// "startup line 12: message" — ChoiceScript's own way to say where.
function whereIn(text) {
  const m = /([\w-]+) line (\d+): ([^\n]*)/.exec(text);
  return m ? { scene: m[1], line: Number(m[2]), message: m[3].trim() } : null;
}

function quicktest(game, timeout) {
  const res = run(['quicktest.js', game], timeout);
  const lines = res.output.split('\n');
  const untestedScenes = [];
  const uncovered = [];
  for (const l of lines) {
    let m = /^UNTESTED (\S+)\.txt$/.exec(l.trim());
    if (m) { untestedScenes.push(m[1]); continue; }
    m = /^([\d,\- ]+) UNTESTED (\S+)\.txt$/.exec(l.trim());
    if (m) uncovered.push({ scene: m[2], lines: m[1].trim() });
  }
  const passed = /QUICKTEST PASSED/.test(res.output);
  const failureLines = lines.filter((l) => /QUICKTEST FAILED|Error|ERROR|line \d+:/.test(l) && !/^\s*(executing|UNCOVERED)/.test(l));
  return {
    command: `node quicktest.js ${game}`,
    passed,
    exit_code: res.exit_code,
    timed_out: res.timed_out,
    seconds: res.seconds,
    failures: passed ? [] : failureLines.slice(0, 50).map((l) => ({ text: l.trim(), where: whereIn(l) })),
    warnings: lines.filter((l) => /WARNING/.test(l)).slice(0, 50).map((l) => l.trim()),
    scenes_never_tested: untestedScenes,
    uncovered_lines: uncovered,
    tail: lines.slice(-15).join('\n'),
  };
}

function parseCoverage(output) {
  // "<scene> <count>: <line text>", one per line of every scene randomtest knows.
  const coverage = {};
  for (const l of output.split('\n')) {
    const m = /^([\w-]+) (\d+): (.*)$/.exec(l);
    if (!m) continue;
    if (!coverage[m[1]]) coverage[m[1]] = [];
    coverage[m[1]].push({ count: Number(m[2]), text: m[3] });
  }
  return coverage;
}

function randomtest(game, runs, timeout) {
  const segments = [];
  const failures = [];
  let seed = 0;
  let coverage = null;
  let coverageSeeds = null;
  while (seed < runs && failures.length < MAX_FAILURES) {
    const num = runs - seed;
    const args = ['randomtest.js', `num=${num}`, `game=${game}`, `seed=${seed}`, 'showCoverage=true'];
    const res = run(args, timeout);
    const passed = /RANDOMTEST PASSED/.test(res.output);
    segments.push({ command: `node ${args.join(' ')}`, passed, exit_code: res.exit_code, timed_out: res.timed_out, seconds: res.seconds });
    if (passed) {
      coverage = parseCoverage(res.output);
      coverageSeeds = `${seed}..${runs - 1}`;
      break;
    }
    const seeds = [...res.output.matchAll(/\*\*\*\*\*Seed (\d+)/g)].map((m) => Number(m[1]));
    const failedSeed = seeds.length ? seeds[seeds.length - 1] : seed;
    const tail = res.output.split('\n').filter((l) => l.trim()).slice(-8);
    const message = tail.filter((l) => !/^\*\*\*\*\*Seed/.test(l)).join('\n');
    failures.push({ seed: failedSeed, where: whereIn(message), message: message.slice(0, 2000), timed_out: res.timed_out });
    if (res.timed_out || failedSeed < seed) break;
    seed = failedSeed + 1;
  }
  return { runs, segments, passed_all: failures.length === 0, failures, coverage, coverage_seeds: coverageSeeds };
}

function summarise(dir, coverage) {
  const scenes = {};
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.txt'));
  for (const f of files) {
    const name = f.slice(0, -4);
    const text = fs.readFileSync(path.join(dir, f), 'utf-8').split(/\r?\n/);
    const cov = coverage && coverage[name];
    const labels = [];
    text.forEach((line, i) => {
      const m = /^\s*\*label\s+(\S+)/.exec(line);
      if (m) labels.push({ label: m[1], line: i + 1, reached_by: cov ? (cov[i] ? cov[i].count : 0) : 0 });
    });
    const unreached = [];
    if (cov) {
      text.forEach((line, i) => {
        if (line.trim() && !/^\s*\*comment\b/.test(line) && (!cov[i] || cov[i].count === 0)) unreached.push(i + 1);
      });
    }
    scenes[name] = {
      lines: text.length,
      known_to_randomtest: Boolean(cov),
      reached: cov ? cov.some((c) => c.count > 0) : false,
      plays_reaching_first_line: cov && cov[0] ? cov[0].count : 0,
      labels,
      unreached_lines: cov ? unreached : 'all (randomtest never loaded this scene)',
      line_counts: cov ? cov.slice(0, text.length).map((c) => c.count) : null,
    };
  }
  return scenes;
}

function main() {
  const args = parseArgs(process.argv.slice(2), { runs: 1000, timeout: 600 });
  const dir = path.resolve(args._[0]);
  if (!fs.existsSync(path.join(dir, 'startup.txt'))) throw new Error(`${dir}: no startup.txt`);
  if (!fs.existsSync(path.join(TOOL_DIR, 'randomtest.js'))) throw new Error(`CHOICESCRIPT_DIR ${TOOL_DIR} has no randomtest.js`);
  const started = Date.now();
  const slug = path.basename(dir);
  const game = `corpus-${slug}`;
  const gameDir = path.join(TOOL_DIR, 'web', game);
  fs.rmSync(gameDir, { recursive: true, force: true });
  fs.mkdirSync(gameDir, { recursive: true });
  fs.symlinkSync(dir, path.join(gameDir, 'scenes'));
  try {
    const q = quicktest(game, args.timeout);
    const r = randomtest(game, args.runs, args.timeout);
    const truth = {
      story: repoRelative(dir),
      format: 'choicescript',
      tool: 'dfabulich/choicescript quicktest.js and randomtest.js',
      tool_version: toolCommit(),
      tool_dir: TOOL_DIR,
      node_version: process.version,
      command: `CHOICESCRIPT_DIR=${TOOL_DIR} node benchmarks/corpus/choicescript_truth.js ${repoRelative(dir)} --runs ${args.runs}`,
      date: new Date().toISOString(),
      quicktest: q,
      randomtest: { ...r, coverage: undefined },
      scenes: summarise(dir, r.coverage),
    };
    truth.elapsed_seconds = Number(((Date.now() - started) / 1000).toFixed(2));
    writeTruth(dir, truth);
  } finally {
    fs.rmSync(gameDir, { recursive: true, force: true });
  }
}

main();
