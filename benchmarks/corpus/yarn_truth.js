#!/usr/bin/env node
// What a JavaScript Yarn runtime says about a Yarn story of corpus/yarn/.
//
//   node benchmarks/corpus/yarn_truth.js corpus/yarn/<slug> [--runs 500] [--max-steps 2000] [--start NodeName]
//
// Yarn Spinner's own compiler and runtime are C# (a .NET tool), which this
// machine cannot install (no .NET SDK from the registries it reaches), and the
// official TypeScript VM only runs programs that compiler made. The maintained
// JavaScript runtime on npm that reads .yarn text is @mnbroatch/bondage (the
// runner behind yarn-bound), which follows the Yarn 2.0 language spec.
// Yarn Spinner 3 additions are NOT part of that spec: node groups (several
// nodes with one title and when: headers), <<detour>>, <<once>>, <<enum>>,
// saliency. Where a story uses them this script records that it does (file
// and line) and the facts it gets are about the 2.0 reading only.
//
// 1. Splits the .yarn files into nodes (headers, ---, body, ===) and records
//    each node's title, file, line and headers.
// 2. Parses each node's body with bondage's own parser: ok, or the error.
// 3. If every node parses, random play from the start node (--start, else a
//    node titled Start, else the first node of the first file): options by a
//    seeded generator, run i with seed i, at most --max-steps results a run;
//    records node titles visited, whether a run that visited a node then
//    reached the end of the dialogue, runs that stopped with an error, and
//    commands the runtime did not execute itself (such as <<detour>>), which it
//    hands to the game.
'use strict';
const fs = require('fs');
const path = require('path');
const bondage = require('@mnbroatch/bondage');
const { mulberry32, parseArgs, writeTruth, repoRelative } = require('./common');

const BONDAGE_VERSION = JSON.parse(fs.readFileSync(path.join(__dirname, 'node_modules', '@mnbroatch', 'bondage', 'package.json'), 'utf-8')).version;
const YS3_CONSTRUCTS = [
  [/^\s*when\s*:/, 'when: header (node group, Yarn Spinner 3)'],
  [/<<\s*detour\b/, '<<detour>> (Yarn Spinner 3)'],
  [/<<\s*once\b/, '<<once>> (Yarn Spinner 3)'],
  [/<<\s*enum\b/, '<<enum>> (Yarn Spinner 3)'],
  [/<<\s*return\s*>>/, '<<return>> (Yarn Spinner 3, ends a detour)'],
];

function splitNodes(dir) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.yarn')).sort();
  const nodes = [];
  const constructs = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf-8').replace(/^\ufeff/, '').split(/\r?\n/);
    let i = 0;
    while (i < lines.length) {
      while (i < lines.length && (lines[i].trim() === '' || /^\s*(\/\/|#)/.test(lines[i]))) i++;
      if (i >= lines.length) break;
      const headerLine = i + 1;
      const headers = {};
      while (i < lines.length && lines[i].trim() !== '---') {
        const m = /^\s*([\w.-]+)\s*:\s*(.*)$/.exec(lines[i]);
        if (m) {
          if (m[1] === 'when') (headers.when = headers.when || []).push(m[2].trim());
          else headers[m[1]] = m[2].trim();
        }
        YS3_CONSTRUCTS.forEach(([re, what]) => { if (re.test(lines[i])) constructs.push({ file, line: i + 1, construct: what }); });
        i++;
      }
      i++; // ---
      const bodyStart = i + 1;
      const body = [];
      while (i < lines.length && lines[i].trim() !== '===') {
        YS3_CONSTRUCTS.forEach(([re, what]) => { if (re.test(lines[i])) constructs.push({ file, line: i + 1, construct: what }); });
        body.push(lines[i]);
        i++;
      }
      i++; // ===
      nodes.push({ title: headers.title || null, file, line: headerLine, body_line: bodyStart, headers, body: body.join('\n') });
    }
  }
  return { files, nodes, constructs };
}

function parseNode(node) {
  const text = `title: ${node.title}\n---\n${node.body}\n===\n`;
  try {
    const runner = new bondage.Runner();
    runner.noEscape = true;
    runner.load(text);
    // bondage parses a node when it runs it; run it to its first result.
    const gen = runner.run(node.title);
    gen.next();
    return { ok: true, error: null };
  } catch (e) {
    const msg = String(e && e.message ? e.message : e);
    // A node that parses but then needs a variable or another node is fine here.
    if (/undefined|not found|No node named|Cannot read/.test(msg) && !/parse|Unexpected|token|Syntax/i.test(msg)) return { ok: true, error: null, note: msg.slice(0, 200) };
    return { ok: false, error: msg.slice(0, 400) };
  }
}

function playOnce(source, start, seed, maxSteps) {
  const rng = mulberry32(seed);
  const runner = new bondage.Runner();
  runner.noEscape = true;
  runner.load(source);
  const visited = new Set();
  const commands = new Set();
  let steps = 0;
  let outcome = 'ended';
  let error = null;
  let lastTitle = start;
  try {
    const gen = runner.run(start);
    let res = gen.next();
    while (!res.done) {
      const value = res.value;
      if (value && value.metadata && value.metadata.title) { visited.add(value.metadata.title); lastTitle = value.metadata.title; }
      if (++steps > maxSteps) { outcome = 'step_limit'; break; }
      if (value instanceof bondage.OptionsResult) {
        const avail = value.options.map((o, k) => [o, k]).filter(([o]) => o.isAvailable !== false);
        if (avail.length === 0) { outcome = 'stuck'; error = 'options offered, none available'; break; }
        value.select(avail[Math.floor(rng() * avail.length)][1]);
      } else if (value instanceof bondage.CommandResult) {
        commands.add(String(value.command || value.name || value.text).split(/\s+/)[0]);
      }
      res = gen.next();
    }
  } catch (e) {
    outcome = 'runtime_error';
    error = String(e && e.message ? e.message : e).slice(0, 300);
  }
  visited.add(start);
  return { seed, outcome, error, lastTitle, visited: [...visited], commands: [...commands] };
}

function main() {
  const args = parseArgs(process.argv.slice(2), { runs: 500, 'max-steps': 2000, start: '' });
  const dir = path.resolve(args._[0]);
  const started = Date.now();
  const { files, nodes, constructs } = splitNodes(dir);
  const parsed = nodes.map((n) => ({ ...n, parse: parseNode(n) }));
  const titles = new Map();
  for (const n of nodes) titles.set(n.title, (titles.get(n.title) || 0) + 1);
  const start = args.start || (titles.has('Start') ? 'Start' : nodes.length ? nodes[0].title : null);
  const truth = {
    story: repoRelative(dir),
    format: 'yarn',
    tool: '@mnbroatch/bondage (JavaScript Yarn runner, Yarn 2.0 language spec; used by yarn-bound)',
    tool_version: BONDAGE_VERSION,
    node_version: process.version,
    command: `node benchmarks/corpus/yarn_truth.js ${repoRelative(dir)} --runs ${args.runs} --max-steps ${args['max-steps']}${args.start ? ` --start ${args.start}` : ''}`,
    date: new Date().toISOString(),
    limits: 'Not Yarn Spinner itself (C#, not installable here). The runner follows the Yarn 2.0 spec: node groups (when:), <<detour>>, <<once>>, <<enum>> of Yarn Spinner 3 are not executed as Yarn Spinner would; see yarn_spinner_3_constructs.',
    files,
    start_node: start,
    nodes: parsed.map((n) => ({ title: n.title, file: n.file, line: n.line, headers: n.headers, parse_ok: n.parse.ok, parse_error: n.parse.error })),
    duplicate_titles: [...titles.entries()].filter(([, k]) => k > 1).map(([t, k]) => ({ title: t, nodes: k })),
    yarn_spinner_3_constructs: constructs,
    random_play: null,
  };
  const allParse = parsed.every((n) => n.parse.ok);
  if (!allParse) {
    truth.random_play = { skipped: `${parsed.filter((n) => !n.parse.ok).length} of ${parsed.length} nodes do not parse with this runner` };
  } else if (start) {
    const source = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf-8').replace(/^\ufeff/, '')).join('\n');
    try {
      new bondage.Runner().load(source);
    } catch (e) {
      truth.random_play = { skipped: `the runner refuses to load the story: ${String(e && e.message ? e.message : e).slice(0, 300)}` };
    }
  }
  if (allParse && start && !truth.random_play) {
    const source = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf-8').replace(/^\ufeff/, '')).join('\n');
    const stats = new Map([...titles.keys()].map((t) => [t, { runs: 0, ended: 0 }]));
    const outcomes = { ended: 0, stuck: 0, runtime_error: 0, step_limit: 0 };
    const errors = new Map();
    const commands = new Set();
    for (let seed = 1; seed <= args.runs; seed++) {
      const run = playOnce(source, start, seed, args['max-steps']);
      outcomes[run.outcome] += 1;
      run.commands.forEach((c) => commands.add(c));
      for (const t of run.visited) {
        if (!stats.has(t)) stats.set(t, { runs: 0, ended: 0 });
        const s = stats.get(t);
        s.runs += 1;
        if (run.outcome === 'ended') s.ended += 1;
      }
      if (run.error) {
        const key = `${run.lastTitle}|${run.error}`;
        if (!errors.has(key)) errors.set(key, { in_node: run.lastTitle, message: run.error, runs: 0, first_seed: seed });
        errors.get(key).runs += 1;
      }
    }
    truth.random_play = {
      runs: args.runs,
      seeds: `1..${args.runs}`,
      max_steps_per_run: args['max-steps'],
      outcomes,
      errors: [...errors.values()],
      commands_handed_to_game: [...commands].sort(),
      node_titles: [...stats.entries()].map(([title, s]) => ({ title, visited: s.runs > 0, visiting_runs: s.runs, reaches_end: s.runs ? s.ended > 0 : null })),
      never_visited: [...stats.entries()].filter(([, s]) => s.runs === 0).map(([t]) => t),
    };
  }
  truth.elapsed_seconds = Number(((Date.now() - started) / 1000).toFixed(2));
  writeTruth(dir, truth);
}

main();
