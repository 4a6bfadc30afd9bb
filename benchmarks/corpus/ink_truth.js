#!/usr/bin/env node
// Ground truth for an ink story of corpus/ink/, from inkle's own language as
// ported by inkjs (compiler and runtime), never from storygraph.
//
//   node benchmarks/corpus/ink_truth.js corpus/ink/<slug> [--runs 500] [--max-choices 400]
//
// 1. Compiles the story's main file (the one no other file INCLUDEs) with
//    inkjs's compiler, following INCLUDEs, and records errors, warnings and
//    author messages (TODO:) with file and line.
// 2. Lists every named container of the compiled story: knots, stitches,
//    functions, labelled gathers and labelled choices, with file and line.
// 3. Random play: --runs runs, run i with seed i (choices by a seeded
//    generator, the story's own RANDOM/shuffle seeded with i too), at most
//    --max-choices choices a run. Records for every container whether a run
//    visited it, and whether some run that visited it then reached an end
//    (END, or DONE with nothing left); runs that stopped with no choice and no
//    safe exit ("ran out of content", a tunnel or function with no return) are
//    stuck, with where.
// Writes <story>/truth.json.
'use strict';
const fs = require('fs');
const path = require('path');
const { Compiler } = require('inkjs/compiler/Compiler');
const { CompilerOptions } = require('inkjs/compiler/CompilerOptions');
const { PosixFileHandler } = require('inkjs/compiler/FileHandler/PosixFileHandler');
const { Story } = require('inkjs/engine/Story');
const { ErrorType } = require('inkjs/engine/Error');
const { mulberry32, parseArgs, writeTruth, repoRelative } = require('./common');

const INKJS_VERSION = JSON.parse(fs.readFileSync(path.join(__dirname, 'node_modules', 'inkjs', 'package.json'), 'utf-8')).version;

function findMainFile(dir) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ink'));
  const included = new Set();
  for (const f of files) {
    const text = fs.readFileSync(path.join(dir, f), 'utf-8');
    for (const m of text.matchAll(/^\s*INCLUDE\s+(.+?)\s*$/gm)) included.add(path.normalize(m[1]));
  }
  const roots = files.filter((f) => !included.has(path.normalize(f)));
  if (roots.length !== 1) throw new Error(`${dir}: expected one main .ink file, found ${roots.join(', ') || 'none'}`);
  return roots[0];
}

// "ERROR: 'night_ferry.ink' line 12: message" (the compiler's own wording)
function parseMessage(msg) {
  const m = /^(ERROR|WARNING|TODO|RUNTIME ERROR|RUNTIME WARNING):\s*(?:'([^']*)'\s*)?(?:line (\d+):\s*)?([\s\S]*)$/.exec(msg);
  if (!m) return { file: null, line: null, message: msg };
  return { file: m[2] ? path.basename(m[2]) : null, line: m[3] ? Number(m[3]) : null, message: m[4].trim() };
}

function compile(dir, mainFile) {
  const errors = [];
  const handler = new PosixFileHandler(dir);
  const source = fs.readFileSync(path.join(dir, mainFile), 'utf-8').replace(/^\ufeff/, '');
  const options = new CompilerOptions(mainFile, [], true, null, handler);
  const compiler = new Compiler(source, options);
  let story = null;
  try {
    story = compiler.Compile();
  } catch (e) {
    if (e.message !== 'Compilation failed.') errors.push({ file: null, line: null, message: `compiler exception: ${e.message}` });
  }
  return {
    compiler,
    story,
    result: {
      ok: story !== null && compiler.errors.length === 0,
      errors: compiler.errors.map(parseMessage).concat(errors),
      warnings: compiler.warnings.map(parseMessage),
      author_messages: compiler.authorMessages.map(parseMessage),
      stats: story ? compiler.GenerateStats() : null,
    },
  };
}

// Every knot, stitch, function, labelled gather and labelled choice of the
// parsed story, with the path of its runtime container.
function namedContainers(compiler) {
  const out = [];
  const seen = new Set();
  const walk = (obj) => {
    if (!obj || typeof obj !== 'object' || seen.has(obj)) return;
    seen.add(obj);
    const type = obj.typeName;
    let kind = null;
    if (type === 'Function') kind = 'function';
    else if (type === 'Knot') kind = 'knot';
    else if (type === 'Stitch') kind = obj.isFunction ? 'function' : 'stitch';
    else if ((type === 'Gather' || type === 'Choice') && obj.identifier && obj.identifier.name) kind = type === 'Gather' ? 'gather' : 'choice';
    if (kind) {
      let runtimePath = null;
      try { runtimePath = obj.runtimePath.toString(); } catch (e) { runtimePath = null; }
      const meta = obj.debugMetadata;
      const name = obj.identifier.name;
      out.push({
        path: runtimePath,
        kind,
        name,
        file: meta && meta.fileName ? path.basename(meta.fileName) : null,
        line: meta ? meta.startLineNumber : null,
      });
    }
    for (const child of obj.content || []) walk(child);
    if (obj.subFlowsByName) for (const sub of obj.subFlowsByName.values()) walk(sub);
  };
  walk(compiler.parsedStory);
  const unique = new Map();
  for (const c of out) if (c.path && !unique.has(c.path)) unique.set(c.path, c);
  return [...unique.values()].sort((a, b) => (a.file || '').localeCompare(b.file || '') || a.line - b.line);
}

function playOnce(json, containers, seed, maxChoices) {
  const story = new Story(json);
  story.allowExternalFunctionFallbacks = true;
  story.state.storySeed = seed;
  const rng = mulberry32(seed);
  const problems = [];
  story.onError = (message, type) => {
    problems.push({ message, type: type === ErrorType.Warning ? 'warning' : 'error' });
  };
  let lastPath = null;
  let lastText = '';
  let lines = 0;
  const maxLines = maxChoices * 50;
  let choices = 0;
  let outcome = null;
  let exception = null;
  try {
    for (;;) {
      while (story.canContinue) {
        if (++lines > maxLines) break;
        const here = story.state.currentPathString;
        if (here) lastPath = here;
        lastText = story.Continue().trim() || lastText;
        if (problems.some((p) => p.type === 'error')) break;
      }
      if (lines > maxLines) { outcome = 'line_limit'; break; }
      const error = problems.find((p) => p.type === 'error');
      const options = story.currentChoices;
      if (error) {
        // The runtime's own words for a flow that stopped with no choice and no
        // END/DONE: "ran out of content" (or the end of a tunnel or function
        // with no return). (state.didSafeExit is reset by Continue in inkjs, so
        // the absence of this error is what marks a safe end.)
        outcome = options.length === 0 && /ran out of content|unexpectedly reached end of content/.test(error.message) ? 'stuck' : 'runtime_error';
        break;
      }
      if (options.length === 0) {
        outcome = 'ended';
        break;
      }
      if (choices >= maxChoices) { outcome = 'choice_limit'; break; }
      const pick = Math.floor(rng() * options.length);
      story.ChooseChoiceIndex(pick);
      choices += 1;
    }
  } catch (e) {
    outcome = 'runtime_error';
    exception = String(e && e.message ? e.message : e);
  }
  const visited = [];
  for (const c of containers) {
    let n = 0;
    try { n = story.state.VisitCountAtPathString(c.path); } catch (e) { n = 0; }
    if (n > 0) visited.push(c.path);
  }
  return { seed, outcome, choices, lastPath, lastText: lastText.slice(0, 100), problems, exception, visited };
}

function main() {
  const args = parseArgs(process.argv.slice(2), { runs: 500, 'max-choices': 400, skip: '' });
  const dir = path.resolve(args._[0]);
  const started = Date.now();
  const mainFile = findMainFile(dir);
  const { compiler, story, result } = compile(dir, mainFile);
  const truth = {
    story: repoRelative(dir),
    format: 'ink',
    tool: 'inkjs (compiler and runtime)',
    tool_version: INKJS_VERSION,
    node_version: process.version,
    command: `node benchmarks/corpus/ink_truth.js ${repoRelative(dir)} --runs ${args.runs} --max-choices ${args['max-choices']}${args.skip ? ` --skip "${args.skip}"` : ''}`,
    date: new Date().toISOString(),
    main_file: mainFile,
    compile: result,
    containers: [],
    random_play: null,
  };
  if (story && args.skip) {
    truth.containers = namedContainers(compiler);
    truth.random_play = { skipped: args.skip };
  } else if (story) {
    const json = story.ToJson();
    const containers = namedContainers(compiler);
    const stats = new Map(containers.map((c) => [c.path, { runs: 0, endedRuns: 0 }]));
    const counts = { ended: 0, stuck: 0, runtime_error: 0, choice_limit: 0, line_limit: 0 };
    const stuck = new Map();
    const runtimeErrors = new Map();
    let totalChoices = 0;
    for (let seed = 1; seed <= args.runs; seed++) {
      const run = playOnce(json, containers, seed, args['max-choices']);
      counts[run.outcome] += 1;
      totalChoices += run.choices;
      for (const p of run.visited) {
        const s = stats.get(p);
        s.runs += 1;
        if (run.outcome === 'ended') s.endedRuns += 1;
      }
      if (run.outcome === 'stuck' || run.outcome === 'runtime_error') {
        const message = run.exception || (run.problems.find((p) => p.type === 'error') || {}).message || 'no choice and no END/DONE';
        const key = `${run.lastPath}|${message}`;
        const bucket = run.outcome === 'stuck' ? stuck : runtimeErrors;
        if (!bucket.has(key)) bucket.set(key, { last_line_started_at: run.lastPath, last_line: run.lastText, message: message.trim(), runs: 0, first_seed: seed });
        bucket.get(key).runs += 1;
      }
    }
    truth.containers = containers.map((c) => {
      const s = stats.get(c.path);
      return { ...c, visited: s.runs > 0, visiting_runs: s.runs, reaches_end: s.runs > 0 ? s.endedRuns > 0 : null };
    });
    truth.random_play = {
      runs: args.runs,
      seeds: `1..${args.runs}`,
      max_choices_per_run: args['max-choices'],
      outcomes: counts,
      mean_choices_per_run: Number((totalChoices / args.runs).toFixed(2)),
      stuck: [...stuck.values()],
      runtime_errors: [...runtimeErrors.values()],
      containers_total: containers.length,
      containers_visited: truth.containers.filter((c) => c.visited).length,
      containers_visited_without_end: truth.containers.filter((c) => c.reaches_end === false).map((c) => c.path),
      containers_never_visited: truth.containers.filter((c) => !c.visited).map((c) => c.path),
    };
  }
  truth.elapsed_seconds = Number(((Date.now() - started) / 1000).toFixed(2));
  writeTruth(dir, truth);
}

main();
