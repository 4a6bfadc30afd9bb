#!/usr/bin/env node
/*
 * storygraph's ink bridge: reads an .ink story with inkjs's own compiler (pinned in
 * package.json) and prints, as one JSON document on stdout, what storygraph maps into
 * its tables (src/storygraph/importers/ink.py).
 *
 * Input (stdin, JSON): {"main": absolute path of the main file, "text": its text as
 * storygraph read it, "limits": {...}}.  INCLUDEs are read here, relative to the main
 * file's folder (as inklecate does); an include outside that folder tree, or that is not
 * a regular file, is refused (the compiler reports it at the INCLUDE line).
 *
 * Why the runtime container tree is walked for the flow: it is what the engine runs.
 * The compiler has already joined every weave there (choices' loose ends diverted to
 * their gather, gathers auto-entered or not, nested weaves sealed inside conditionals,
 * a knot's fall into its first stitch, `- else:` after choices, `}<>` glue), so the
 * walk follows the engine instead of re-deciding ink's weave rules.  What the runtime
 * has lost - the condition as written, whether a name is a global, a temporary, a
 * parameter or a constant, `ref` parameters, where a construct is written - is read
 * from the parsed hierarchy, which the compiler links to every runtime object it made.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const out = { version: 1, messages: [], scenes: [], accounted: [], issues: [], decls: [], consts: [], lists: [],
  assigns: [], reads: [], calls: [], flows: [] };

function emit(doc) {
  const text = JSON.stringify(doc);
  let offset = 0;
  const buf = Buffer.from(text, 'utf8');
  while (offset < buf.length) {
    offset += fs.writeSync(1, buf, offset, Math.min(1 << 20, buf.length - offset));
  }
}

let ink;
try {
  ink = require('inkjs/full');
} catch (e) {
  emit({ fatal: 'missing-inkjs', detail: String(e && e.message || e).slice(0, 300) });
  process.exit(0);
}

// ------------------------------------------------------------------ reading files

const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

function decode(bytes) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    try {
      text = new TextDecoder('euc-kr', { fatal: true }).decode(bytes);
    } catch (e2) {
      throw new Error('STORYGRAPH:encoding');
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.replace(/\r\n/g, '\n').replace(/\r/g, '\n').replace(CONTROL, ' ');
}

function inside(root, target) {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function makeFileHandler(mainPath, limits, texts) {
  const rootDir = path.dirname(mainPath);
  let realRoot = rootDir;
  try { realRoot = fs.realpathSync(rootDir); } catch (e) { /* the main file was read already */ }
  let files = 0;
  let bytes = 0;
  return {
    ResolveInkFilename: (filename) => path.resolve(rootDir, filename),
    LoadInkFileContents: (full) => {
      if (!inside(rootDir, full)) throw new Error('STORYGRAPH:outside');
      let real;
      try { real = fs.realpathSync(full); } catch (e) { throw new Error('STORYGRAPH:missing'); }
      if (!inside(realRoot, real)) throw new Error('STORYGRAPH:outside');
      let st;
      try { st = fs.statSync(real); } catch (e) { throw new Error('STORYGRAPH:missing'); }
      if (!st.isFile()) throw new Error('STORYGRAPH:not-file');
      if (st.size > limits.maxFileBytes) throw new Error('STORYGRAPH:too-big');
      files += 1;
      bytes += st.size;
      if (files > limits.maxFiles) throw new Error('STORYGRAPH:too-many');
      if (bytes > limits.maxTotalBytes) throw new Error('STORYGRAPH:too-big');
      let data;
      try { data = fs.readFileSync(real); } catch (e) { throw new Error('STORYGRAPH:unreadable'); }
      const text = decode(data);
      texts.set(path.relative(rootDir, full), text);
      return text;
    },
  };
}

// ------------------------------------------------------------------ messages

const MESSAGE = /^(ERROR|WARNING|TODO):\s*(?:'([\s\S]*?)'\s+)?line (\d+):\s*([\s\S]*)$/;

function addMessage(type, file, line, text) {
  if (out.messages.length >= 2000) return;
  out.messages.push({ type, file: file == null ? null : String(file), line: line == null ? null : line,
    text: String(text).slice(0, 500) });
}

function onParserMessage(message, errorType) {
  const m = MESSAGE.exec(String(message));
  const type = errorType === 2 ? 'error' : errorType === 1 ? 'warning' : 'todo';
  if (m) addMessage(type, m[2] === undefined ? null : m[2], Number(m[3]), m[4]);
  else addMessage(type, null, null, message);
}

// ------------------------------------------------------------------ object kinds

const tn = (o) => (o && typeof o === 'object' && 'typeName' in o ? o.typeName : null);
const isContainer = (o) => o && typeof o === 'object' && o.namedContent instanceof Map && Array.isArray(o.content);
const isRDivert = (o) => o && typeof o === 'object' && 'pushesToStack' in o && 'stackPushType' in o;
const isControl = (o) => o && typeof o === 'object' && typeof o.commandType === 'number';
const isChoicePoint = (o) => o && typeof o === 'object' && '_pathOnChoice' in o && 'onceOnly' in o;
const CMD = { PopFunction: 5, PopTunnel: 6, NoOp: 9, StartThread: 18, Done: 19, End: 20 };
const PUSH = { Tunnel: 0, Function: 1, FunctionEvaluationFromGame: 2 };

function dmOf(p) {
  const dm = p && p.debugMetadata;
  return dm && dm.startLineNumber >= 1 ? dm : null;
}

function ownDm(p) {
  return p && p._debugMetadata && p._debugMetadata.startLineNumber >= 1 ? p._debugMetadata : null;
}

function where(p) {
  const dm = dmOf(p);
  return dm ? { file: dm.fileName == null ? null : String(dm.fileName), line: dm.startLineNumber } : { file: null, line: null };
}

function closestFlow(p) {
  for (let o = p; o; o = o.parent) {
    const t = tn(o);
    if (t === 'Knot' || t === 'Function' || t === 'Stitch' || t === 'Story') return o;
  }
  return null;
}

function inFunction(p) {
  for (let o = p; o; o = o.parent) {
    if (o.isFunction === true) return true;
  }
  return false;
}

// ------------------------------------------------------------------ source text

let fileTexts = new Map(); // file name (as the compiler names it) -> lines

function sourceOf(p, limit = 200) {
  const dm = dmOf(p);
  if (!dm || dm.endLineNumber !== dm.startLineNumber) return null;
  const lines = fileTexts.get(dm.fileName == null ? null : String(dm.fileName));
  if (!lines) return null;
  const line = lines[dm.startLineNumber - 1];
  if (line === undefined) return null;
  const text = line.slice(dm.startCharacterNumber - 1, dm.endCharacterNumber - 1).trim();
  return text && text.length <= limit ? text : null;
}

// ------------------------------------------------------------------ expressions

let story = null; // the parsed story

function scopeOf(name, node) {
  if (!story || !name) return 'global';
  try {
    const r = story.ResolveVariableWithName(name, node);
    if (r && r.found) {
      if (r.isGlobal) return 'global';
      if (r.isArgument) return 'param';
      if (r.isTemporary) return 'temp';
    }
  } catch (e) { /* a broken story: take it as a global */ }
  return 'undeclared';
}

function ser(e, depth = 0) {
  if (!e) return { t: 'opaque', why: 'missing' };
  if (depth > 64) return { t: 'opaque', why: 'deep' };
  const t = tn(e);
  switch (t) {
    case 'Number':
      if (e.subtype === 'bool' || typeof e.value === 'boolean') return { t: 'bool', v: Boolean(e.value) };
      if (e.subtype === 'float') return { t: 'float', v: e.value };
      return { t: 'int', v: e.value };
    case 'String': {
      if (e.isSingleString) {
        const texts = (e.content || []).filter((c) => tn(c) === 'Text').map((c) => c.text);
        return { t: 'str', v: texts.join('') };
      }
      return { t: 'opaque', why: 'string-logic' };
    }
    case 'ref': {
      const name = e.name;
      if (e.isConstantReference || (story && story.constants && story.constants.has && story.constants.has(name))) {
        const value = story && story.constants ? story.constants.get(name) : null;
        return { t: 'const', name, value: value ? ser(value, depth + 1) : { t: 'opaque', why: 'missing' } };
      }
      if (e.isListItemReference) return { t: 'list', name };
      const rv = e._runtimeVarRef;
      if (rv && rv.pathForCount) {
        const target = readCountTarget(e);
        return target ? { t: 'visit', scene: target } : { t: 'opaque', why: 'visit' };
      }
      if (story && story._listDefs && story._listDefs.has && story._listDefs.has(name)) return { t: 'list', name };
      const scope = scopeOf(name, e);
      if (scope === 'global' || scope === 'undeclared') {
        const decl = story && story.variableDeclarations ? story.variableDeclarations.get(name) : null;
        if (decl && decl.listDefinition) return { t: 'list', name };
        return { t: 'var', name, undeclared: scope === 'undeclared' };
      }
      return { t: 'temp', name, param: scope === 'param' };
    }
    case 'BinaryExpression':
      return { t: 'bin', op: e.opName, l: ser(e.leftExpression, depth + 1), r: ser(e.rightExpression, depth + 1) };
    case 'UnaryExpression':
      return { t: 'un', op: e.op, e: ser(e.innerExpression, depth + 1) };
    case 'MultipleConditionExpression':
      return { t: 'all', items: (e.subExpressions || []).map((x) => ser(x, depth + 1)) };
    case 'FunctionCall': {
      if (e.isReadCount && e.args && e.args.length === 1 && tn(e.args[0]) === 'DivertTarget') {
        const target = sceneOfParsed(e.args[0].divert && e.args[0].divert.targetContent);
        return target ? { t: 'visit', scene: target.id } : { t: 'opaque', why: 'visit' };
      }
      return { t: 'call', name: e.name, args: (e.args || []).map((x) => ser(x, depth + 1)) };
    }
    case 'DivertTarget': {
      const d = e.divert;
      const target = d ? sceneOfParsed(d.targetContent) : null;
      return { t: 'divert', scene: target ? target.id : null,
        text: d && d.target ? d.target.dotSeparatedComponents : null };
    }
    case 'List':
      return { t: 'list', name: null };
    default:
      return { t: 'opaque', why: t || 'unknown' };
  }
}

function readCountTarget(ref) {
  // the knot, stitch or label a bare name counts the visits of
  try {
    const rv = ref._runtimeVarRef;
    const container = rv && rv.containerForCount;
    if (container) {
      const sc = sceneByContainer.get(container);
      if (sc) return sc.id;
    }
  } catch (e) { /* not resolvable */ }
  return null;
}

function part(expr, negated) {
  return { expr: ser(expr), src: sourceOf(expr), neg: Boolean(negated), line: where(expr).line };
}

// ------------------------------------------------------------------ scenes

const sceneByContainer = new Map();
const scenes = [];
const usedIds = new Set();
let seq = 0;

function flowId(flow) {
  if (!flow) return '(top)';
  const t = tn(flow);
  if (t === 'Story') return '(top)';
  if (t === 'Stitch') return `${flow.parent && flow.parent.name}.${flow.name}`;
  return flow.name;
}

function uniqueId(id) {
  let candidate = id;
  let n = 2;
  while (usedIds.has(candidate)) {
    candidate = `${id}-${n}`;
    n += 1;
  }
  usedIds.add(candidate);
  return candidate;
}

function addScene(kind, id, container, place, flow, extra = {}) {
  const sc = Object.assign({ key: `s${seq++}`, id: uniqueId(id), kind, file: place.file, line: place.line,
    flow, container, exits: null, runsOut: false, order: scenes.length }, extra);
  scenes.push(sc);
  if (container) sceneByContainer.set(container, sc);
  return sc;
}

function sceneOfParsed(p) {
  if (!p) return null;
  const t = tn(p);
  if (t === 'Choice') return sceneByContainer.get(p._innerContentContainer) || null;
  if (t === 'Gather' || t === 'Knot' || t === 'Stitch') return sceneByContainer.get(p._runtimeObject) || null;
  return null;
}

// ------------------------------------------------------------------ the parsed <-> runtime links

const ownerOf = new Map(); // runtime object -> parsed object that made it
const divertOf = new Map(); // runtime divert -> parsed Divert
const choiceOf = new Map(); // runtime choice point -> parsed Choice
const rejoinOf = new Map(); // runtime no-op -> parsed Conditional it rejoins
const internalDiverts = new Set(); // a choice's jumps into and out of its start content

function linkRuntime(root) {
  const stack = [root];
  const seen = new Set();
  while (stack.length) {
    const p = stack.pop();
    if (!p || typeof p !== 'object' || seen.has(p)) continue;
    seen.add(p);
    const rt = p._runtimeObject;
    if (rt && typeof rt === 'object') {
      if (!ownerOf.has(rt) || ownerOf.get(rt) === p.parent) ownerOf.set(rt, p);
      if (isContainer(rt)) {
        for (const item of rt.content) if (!ownerOf.has(item)) ownerOf.set(item, p);
      }
    }
    const t = tn(p);
    if (t === 'Divert' && p._runtimeDivert) divertOf.set(p._runtimeDivert, p);
    if (t === 'Choice') {
      if (p._runtimeChoice) choiceOf.set(p._runtimeChoice, p);
      for (const d of [p._divertToStartContentOuter, p._divertToStartContentInner]) if (d) internalDiverts.add(d);
    }
    if (t === 'Conditional' && p._reJoinTarget) rejoinOf.set(p._reJoinTarget, p);
    const kids = p.content || [];
    // children after the parent, so that the deepest maker of a runtime object wins
    for (let i = kids.length - 1; i >= 0; i -= 1) stack.push(kids[i]);
    if (t === 'TunnelOnwards' && p.divertAfter) stack.push(p.divertAfter);
  }
  // second pass: the deepest parsed object owns the runtime content it generated
  const order = [];
  const seen2 = new Set();
  const stack2 = [root];
  while (stack2.length) {
    const p = stack2.pop();
    if (!p || typeof p !== 'object' || seen2.has(p)) continue;
    seen2.add(p);
    order.push(p);
    const kids = p.content || [];
    for (let i = kids.length - 1; i >= 0; i -= 1) stack2.push(kids[i]);
  }
  for (const p of order) {
    const rt = p._runtimeObject;
    if (rt && typeof rt === 'object') {
      ownerOf.set(rt, p);
      if (isContainer(rt)) for (const item of rt.content) ownerOf.set(item, p);
    }
  }
}

// ------------------------------------------------------------------ the walk

class Budget extends Error {}

let steps = 0;
let exitCount = 0;
let LIMITS = null;

function tick() {
  steps += 1;
  if (steps > LIMITS.maxSteps) throw new Budget('steps');
}

function resolveTarget(div) {
  try {
    if (!div.targetPath) return null;
    const ptr = div.targetPointer;
    if (!ptr || !ptr.container) return null;
    const index = ptr.index < 0 ? 0 : ptr.index;
    return { c: ptr.container, i: index };
  } catch (e) {
    return null;
  }
}

function targetText(pd) {
  try {
    if (pd && pd.target) return pd.target.dotSeparatedComponents;
  } catch (e) { /* fall through */ }
  return null;
}

function choiceText(pc) {
  const texts = [];
  const add = (list) => {
    if (!list || !list.content) return;
    const stack = [...list.content].reverse();
    while (stack.length) {
      const o = stack.pop();
      if (tn(o) === 'Text') texts.push(o.text);
      else if (tn(o) === 'Divert' || tn(o) === 'Conditional' || tn(o) === 'Sequence') continue;
      else if (o && o.content && tn(o) === 'ContentList') stack.push(...[...o.content].reverse());
    }
  };
  add(pc.startContent);
  add(pc.choiceOnlyContent);
  return texts.join('').replace(/\s+/g, ' ').trim();
}

function condInfo(P, cache) {
  let info = cache.get(P);
  if (info) return info;
  const branches = P.branches || [];
  const init = P.initialCondition;
  const parts = [];
  let hasElse = false;
  const previous = [];
  for (const b of branches) {
    if (b.isElse) {
      hasElse = true;
      parts.push(previous.map((x) => Object.assign({}, x, { neg: !x.neg })));
      continue;
    }
    let own;
    if (init && b.isTrueBranch) {
      own = part(init, false);
    } else if (init && b.matchingEquality && b.ownExpression) {
      const l = ser(init);
      const r = ser(b.ownExpression);
      const ls = sourceOf(init);
      const rs = sourceOf(b.ownExpression);
      own = { expr: { t: 'bin', op: '==', l, r }, src: ls && rs ? `${ls} == ${rs}` : null, neg: false, line: where(b).line };
    } else if (b.ownExpression) {
      own = part(b.ownExpression, false);
    } else {
      own = { opaque: 'condition', src: sourceOf(b), neg: false, line: where(b).line };
    }
    parts.push(previous.map((x) => Object.assign({}, x, { neg: !x.neg })).concat([own]));
    previous.push(own);
  }
  info = { parts, hasElse, branches };
  cache.set(P, info);
  return info;
}

function newState(scene, flow) {
  return { scene, flow, out: [], lastLine: scene ? { file: scene.file, line: scene.line } : null, conds: new Map(),
    visited: new Set() };
}

function place(state, o, pd) {
  const w = pd ? where(pd) : null;
  if (w && w.line != null) {
    state.lastLine = w;
    return w;
  }
  return state.lastLine || { file: null, line: null };
}

function exit(state, e) {
  exitCount += 1;
  if (exitCount > LIMITS.maxExits) throw new Budget('exits');
  state.out.push(e);
}

function contScene(state, c, i, at, mode) {
  // the flow after a tunnel call or a thread (`mode`), from position i of container c
  const key = `${i}`;
  let bucket = contScenes.get(c);
  if (!bucket) contScenes.set(c, bucket = new Map());
  let sc = bucket.get(key);
  if (!sc) {
    sc = addScene('after', `${flowId(state.flow)}.after-${at.line}`, null, at, state.flow, { start: { c, i }, after: mode });
    bucket.set(key, sc);
    queue.push(sc);
  }
  return sc;
}

const contScenes = new Map();
const queue = [];

function walk(state, c, i, ctx, live, stopAt, depth) {
  if (depth > LIMITS.maxNesting) {
    const w = state.lastLine || { file: null, line: null };
    out.issues.push({ code: 'deep', file: w.file, line: w.line });
    return { falls: false };
  }
  for (;;) {
    tick();
    if (i >= c.content.length) {
      const parent = c.parent;
      if (isContainer(parent)) {
        const j = parent.content.indexOf(c);
        if (j >= 0) {
          c = parent;
          i = j + 1;
          continue;
        }
      }
      return { falls: live };
    }
    const item = c.content[i];
    const own = item && item._debugMetadata;
    if (own && own.startLineNumber >= 1) {
      state.lastLine = { file: own.fileName == null ? null : String(own.fileName), line: own.startLineNumber };
    }
    if (isContainer(item)) {
      const sc = sceneByContainer.get(item);
      if (sc && sc !== state.scene) {
        if (live) {
          const w = place(state, item, null);
          exit(state, { k: 'go', to: sc.key, cond: ctx, file: w.file, line: w.line, live, generated: true });
          live = false;
        }
        i += 1;
        continue;
      }
      const owner = ownerOf.get(item);
      const t = tn(owner);
      if (t === 'ConditionalSingleBranch' && owner._runtimeObject === item) {
        const P = owner.parent;
        const info = condInfo(P, condCache);
        const k = info.branches.indexOf(owner);
        const parts = k >= 0 ? info.parts[k] : [{ opaque: 'condition', src: null, neg: false }];
        place(state, item, owner);
        const body = owner._contentContainer;
        let r = { falls: false };
        if (body) r = walk(state, body, 0, ctx.concat(parts), live, P._reJoinTarget, depth + 1);
        const cs = state.conds.get(P) || { falls: false, tunnel: false };
        cs.falls = cs.falls || r.falls;
        cs.tunnel = cs.tunnel || Boolean(r.tunnel);
        state.conds.set(P, cs);
        i += 1;
        continue;
      }
      if (t === 'Sequence' && owner._runtimeObject === item) {
        const src = sourceOf(owner, 120);
        const w = place(state, item, owner);
        const opaque = { opaque: 'sequence', src: src ? `{${src}}` : null, neg: false, line: w.line };
        let stop = null;
        for (let j = item.content.length - 1; j >= 0; j -= 1) {
          if (isControl(item.content[j]) && item.content[j].commandType === CMD.NoOp) { stop = item.content[j]; break; }
        }
        let falls = Boolean(owner.sequenceType & 2); // once: nothing more once every element was shown
        let n = 0;
        let tunnel = false;
        for (const [name, element] of item.namedContent) {
          if (!/^s\d+$/.test(name) || !isContainer(element)) continue;
          n += 1;
          const r = walk(state, element, 0, ctx.concat([opaque]), live, stop, depth + 1);
          falls = falls || r.falls;
          tunnel = tunnel || Boolean(r.tunnel);
        }
        if (n === 0) falls = true;
        if (!falls && tunnel && live) return { falls: false, tunnel: true };
        if (!falls) live = false;
        i += 1;
        continue;
      }
      // an ordinary container: the engine steps into it
      c = item;
      i = 0;
      continue;
    }
    if (isControl(item)) {
      const cmd = item.commandType;
      if (cmd === CMD.NoOp && rejoinOf.has(item)) {
        const P = rejoinOf.get(item);
        const info = condInfo(P, condCache);
        // a walk that did not enter the conditional at its start began inside one of
        // its branches (the continuation after a tunnel call there): it got here by
        // falling out of that branch, and the flow goes on after the block
        const cs = state.conds.has(P) ? state.conds.get(P) : { falls: true, tunnel: false };
        if (!(cs.falls || !info.hasElse)) {
          // what follows is the continuation's when a branch went into a tunnel
          if (cs.tunnel && live) return { falls: false, tunnel: true };
          live = false;
        }
        if (item === stopAt) return { falls: live };
        i += 1;
        continue;
      }
      if (item === stopAt) return { falls: live };
      if (cmd === CMD.End || cmd === CMD.Done) {
        const owner = ownerOf.get(item);
        const authored = owner && tn(owner) === 'Divert' && owner._runtimeObject === item && ownDm(owner);
        if (live || authored) {
          const w = place(state, item, authored ? owner : null);
          exit(state, { k: 'end', which: cmd === CMD.End ? 'END' : 'DONE', cond: ctx, file: w.file, line: w.line, live,
            generated: !authored });
        }
        live = false;
        i += 1;
        continue;
      }
      if (cmd === CMD.PopTunnel) {
        const owner = ownerOf.get(item);
        const w = place(state, item, owner && tn(owner) === 'TunnelOnwards' ? owner : null);
        const after = owner && tn(owner) === 'TunnelOnwards' ? owner.divertAfter : null;
        if (after) {
          divertExit(state, after, null, ctx, live, w, 'onwards', c, i);
        } else {
          exit(state, { k: 'return', cond: ctx, file: w.file, line: w.line, live });
        }
        live = false;
        i += 1;
        continue;
      }
      if (cmd === CMD.StartThread) {
        const next = c.content[i + 1];
        const pd = divertOf.get(next) || ownerOf.get(item);
        const w = place(state, item, pd);
        if (isRDivert(next)) {
          divertExit(state, pd && tn(pd) === 'Divert' ? pd : null, next, ctx, live, w, 'thread', c, i + 1);
          // the thread runs at once; what follows the `<-` runs after it, in the
          // continuation (a scene of its own, as after a tunnel call): storygraph decides
          // from what the thread offers whether that is a place of its own or this scene
          if (live) return { falls: false, tunnel: true };
          i += 2;
        } else {
          i += 1;
        }
        continue;
      }
      if (cmd === CMD.PopFunction) {
        live = false;
      }
      i += 1;
      continue;
    }
    if (isChoicePoint(item)) {
      choiceExit(state, item, ctx, live, depth);
      i += 1;
      continue;
    }
    if (isRDivert(item)) {
      const pd = divertOf.get(item);
      if (internalDiverts.has(item) || item.variableDivertName === '$r'
          || (item.pushesToStack && (item.stackPushType === PUSH.Function || item.stackPushType === PUSH.FunctionEvaluationFromGame))
          || item.isExternal) {
        i += 1;
        continue;
      }
      if (!live && !pd) {
        i += 1;
        continue;
      }
      const w = place(state, item, pd);
      if (item.pushesToStack && item.stackPushType === PUSH.Tunnel) {
        // what follows the call is the continuation's (a scene of its own), not this one's
        divertExit(state, pd, item, ctx, live, w, 'tunnel', c, i);
        return { falls: false, tunnel: true };
      }
      if (item.variableDivertName) {
        divertExit(state, pd, item, ctx, live, w, 'go', c, i);
        live = false;
        i += 1;
        continue;
      }
      const pos = resolveTarget(item);
      if (pos) {
        const target = pos.c.content[pos.i];
        const sc = pos.i === 0 ? sceneByContainer.get(pos.c) : null;
        if (sc) {
          exit(state, { k: 'go', to: sc.key, cond: ctx, file: w.file, line: w.line, live, generated: !pd,
            args: pd ? argsOf(pd) : null });
          live = false;
          i += 1;
          continue;
        }
        if (target === stopAt && stopAt) {
          if (live) return { falls: true };
          i += 1;
          continue;
        }
        if (live && !item.isConditional) {
          const mark = `${visitKey(pos.c)}:${pos.i}`;
          if (state.visited.has(mark)) return { falls: false };
          state.visited.add(mark);
          c = pos.c;
          i = pos.i;
          continue;
        }
        i += 1;
        continue;
      }
      // a target the compiler could not find: the branch points at a scene that does not exist
      exit(state, { k: 'go', to: null, missing: targetText(pd) || '?', cond: ctx, file: w.file, line: w.line, live,
        generated: !pd });
      if (!item.isConditional) live = false;
      i += 1;
      continue;
    }
    i += 1;
  }
}

const visitKeys = new Map();
function visitKey(c) {
  let k = visitKeys.get(c);
  if (k === undefined) visitKeys.set(c, k = visitKeys.size);
  return k;
}

function argsOf(pd) {
  if (!pd || !pd.args || !pd.args.length) return null;
  return pd.args.map((a) => ser(a));
}

function divertExit(state, pd, rt, ctx, live, w, mode, c, i) {
  // mode: 'go' (a divert through a variable), 'tunnel', 'thread', 'onwards' (->-> target)
  const variable = rt ? rt.variableDivertName : (pd ? variableName(pd) : null);
  let to = null;
  let missing = null;
  if (!variable) {
    let sc = null;
    if (rt) {
      const pos = resolveTarget(rt);
      if (pos && pos.i === 0) sc = sceneByContainer.get(pos.c) || null;
    }
    if (!sc && pd) sc = sceneOfParsed(pd.targetContent);
    if (sc) to = sc.key;
    else {
      const text = targetText(pd);
      if (text === 'END' || text === 'DONE') {
        exit(state, { k: 'end', which: text, cond: ctx, file: w.file, line: w.line, live, generated: false });
        return;
      }
      missing = text || '?';
    }
  }
  const e = { k: mode === 'onwards' ? 'go' : mode, to, missing, cond: ctx, file: w.file, line: w.line, live,
    generated: !pd, args: pd ? argsOf(pd) : null };
  if (mode === 'onwards') e.onwards = true;
  if (variable) {
    e.variable = variable;
    e.scope = scopeOf(variable, pd || state.flow);
  }
  if (mode === 'tunnel' || (mode === 'thread' && live)) e.cont = contScene(state, c, i + 1, w, mode).key;
  exit(state, e);
}

function variableName(pd) {
  try {
    const name = pd.PathAsVariableName ? pd.PathAsVariableName() : null;
    if (name && story && scopeOf(name, pd) !== 'undeclared') return name;
  } catch (e) { /* not a variable */ }
  return null;
}

const condCache = new Map();

function plainExit(e) {
  return (e.k === 'go' || e.k === 'end') && e.cond.length === 0 && e.live && !e.variable && !e.onwards;
}

function choiceExit(state, item, ctx, live, depth) {
  const pc = choiceOf.get(item);
  const w = place(state, item, pc);
  const cond = pc && pc.condition ? ctx.concat([part(pc.condition, false)]) : ctx;
  const base = { k: 'choice', cond, file: w.file, line: w.line, live, once: Boolean(item.onceOnly),
    invisible: Boolean(item.isInvisibleDefault), text: pc ? choiceText(pc) : '' };
  let inner = pc ? pc._innerContentContainer : null;
  if (!inner) {
    try { inner = item.choiceTarget; } catch (e) { inner = null; }
  }
  if (!inner) {
    exit(state, Object.assign(base, { to: null, missing: '?' }));
    return;
  }
  const named = sceneByContainer.get(inner);
  if (named) {
    exit(state, Object.assign(base, { to: named.key }));
    return;
  }
  if (depth + 1 > LIMITS.maxNesting) {
    out.issues.push({ code: 'deep', file: w.file, line: w.line });
    return;
  }
  const body = newState(null, state.flow);
  body.lastLine = w;
  const r = walk(body, inner, 0, [], true, null, depth + 1);
  if (body.out.length === 1 && plainExit(body.out[0]) && !r.falls) {
    const only = body.out[0];
    const e = Object.assign(base, only.k === 'end' ? { end: only.which } : { to: only.to, missing: only.missing });
    if (!only.generated && (only.line !== w.line || only.file !== w.file)) e.via = { file: only.file, line: only.line };
    exit(state, e);
    return;
  }
  const sc = addScene('choice', `${flowId(state.flow)}.choice-${w.line}`, inner, w, state.flow,
    { title: base.text });
  sc.exits = body.out;
  sc.runsOut = r.falls;
  sc.runsOutAt = r.falls ? body.lastLine : null;
  exit(state, Object.assign(base, { to: sc.key }));
}

function walkScene(sc) {
  const state = newState(sc, sc.flow);
  let r;
  if (sc.start) r = walk(state, sc.start.c, sc.start.i, [], true, null, 0);
  else r = walk(state, sc.container, 0, [], true, null, 0);
  sc.exits = state.out;
  sc.runsOut = r.falls;
  sc.runsOutAt = r.falls ? state.lastLine : null;
}

// ------------------------------------------------------------------ what the story declares, reads and writes

function collect(root) {
  const stack = [root];
  const seen = new Set();
  const order = [];
  while (stack.length) {
    const p = stack.pop();
    if (!p || typeof p !== 'object' || seen.has(p)) continue;
    seen.add(p);
    order.push(p);
    const kids = p.content || [];
    for (let i = kids.length - 1; i >= 0; i -= 1) stack.push(kids[i]);
  }
  return order;
}

function flowName(flow) {
  if (!flow || tn(flow) === 'Story') return null;
  if (tn(flow) === 'Stitch') return `${flow.parent && flow.parent.name}.${flow.name}`;
  return flow.name;
}

function assignedIn(p) {
  // the variable whose assignment expression holds p (its own name read there is no read)
  for (let o = p.parent; o; o = o.parent) {
    const t = tn(o);
    if (t === 'variable assignment' || t === 'temp' || t === 'VAR') return o.variableName;
    if (t === 'IncDecExpression') return o.varIdentifier ? o.varIdentifier.name : null;
    if (t === 'Weave' || t === 'Knot' || t === 'Stitch' || t === 'Function' || t === 'Story') return null;
  }
  return null;
}

function describe(objects) {
  const flows = new Set();
  for (const p of objects) {
    const t = tn(p);
    const w = where(p);
    if (t === 'Knot' || t === 'Function' || t === 'Stitch') {
      if (!flows.has(p)) {
        flows.add(p);
        out.flows.push({ name: flowName(p), function: Boolean(p.isFunction), file: w.file, line: w.line,
          params: (p.args || []).map((a) => ({ name: a.identifier ? a.identifier.name : null, ref: Boolean(a.isByReference),
            divert: Boolean(a.isDivertTarget) })) });
      }
    } else if (t === 'VAR') {
      out.decls.push({ name: p.variableName, value: p.expression ? ser(p.expression) : null, file: w.file, line: w.line,
        src: sourceOf(p.expression) });
    } else if (t === 'LIST') {
      out.lists.push({ name: p.variableName, file: w.file, line: w.line });
    } else if (t === 'CONST') {
      out.consts.push({ name: p.constantName, value: ser(p.expression), file: w.file, line: w.line });
    } else if (t === 'variable assignment' || t === 'temp') {
      const scope = t === 'temp' ? 'temp' : scopeOf(p.variableName, p);
      out.assigns.push({ name: p.variableName, scope, value: p.expression ? ser(p.expression) : null, file: w.file,
        line: w.line, flow: flowName(closestFlow(p)), src: sourceOf(p) });
    } else if (t === 'IncDecExpression') {
      const name = p.varIdentifier ? p.varIdentifier.name : null;
      if (name) {
        out.assigns.push({ name, scope: scopeOf(name, p), inc: p.isInc ? '+' : '-',
          value: p.expression ? ser(p.expression) : null, file: w.file, line: w.line, flow: flowName(closestFlow(p)),
          src: sourceOf(p) });
      }
    } else if (t === 'ref') {
      if (p.isConstantReference || p.isListItemReference) continue;
      const rv = p._runtimeVarRef;
      if (rv && rv.pathForCount) continue;
      const scope = scopeOf(p.name, p);
      if (scope !== 'global' && scope !== 'undeclared') continue;
      if (assignedIn(p) === p.name) continue;
      if (story && story.constants && story.constants.has && story.constants.has(p.name)) continue;
      out.reads.push({ name: p.name, file: w.file, line: w.line, undeclared: scope === 'undeclared' });
    } else if (t === 'FunctionCall' || (t === 'Divert' && !p.isFunctionCall && p.args && p.args.length)) {
      const target = t === 'FunctionCall' ? (p._proxyDivert ? p._proxyDivert.targetContent : null) : p.targetContent;
      const args = (p.args || []).map((a) => {
        if (tn(a) === 'ref') return { ref: a.name, scope: scopeOf(a.name, a), value: ser(a) };
        return { value: ser(a) };
      });
      out.calls.push({ target: target && target.isFunction !== undefined ? flowName(target) : null,
        name: t === 'FunctionCall' ? p.name : targetText(p), args, file: w.file, line: w.line,
        flow: flowName(closestFlow(p)) });
    }
  }
}

// ------------------------------------------------------------------ where the parser stopped

function withoutComments(lines) {
  // ink's comment eliminator: `//` to the end of the line, `/* */` across lines
  const outLines = [];
  let inBlock = false;
  for (const raw of lines) {
    let line = '';
    let i = 0;
    while (i < raw.length) {
      if (inBlock) {
        const end = raw.indexOf('*/', i);
        if (end < 0) { i = raw.length; break; }
        inBlock = false;
        i = end + 2;
        continue;
      }
      if (raw.startsWith('/*', i)) { inBlock = true; i += 2; continue; }
      if (raw.startsWith('//', i)) break;
      line += raw[i];
      i += 1;
    }
    outLines.push(line);
  }
  return outLines;
}

function stoppedEarly(objects) {
  // The parser stops at a line no statement rule reads (a stray `}` at the top level)
  // without an error, and everything after it is left out: say so at that line.
  const last = new Map();
  for (const p of objects) {
    const dm = ownDm(p);
    if (!dm) continue;
    const name = dm.fileName == null ? null : String(dm.fileName);
    last.set(name, Math.max(last.get(name) || 0, dm.endLineNumber || dm.startLineNumber));
  }
  for (const [name, lines] of fileTexts) {
    const clean = withoutComments(lines);
    const from = last.get(name) || 0;
    for (let i = from; i < clean.length; i += 1) {
      if (clean[i].trim() && !/^\s*INCLUDE\b/.test(clean[i])) {
        addMessage('stopped', name, i + 1, lines[i].trim());
        break;
      }
    }
  }
}

// ------------------------------------------------------------------ main

function run(req) {
  LIMITS = Object.assign({ maxFiles: 200, maxFileBytes: 16 * 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024,
    maxSteps: 4000000, maxNesting: 64, maxExits: 400000 }, req.limits || {});
  const mainPath = req.main;
  const texts = new Map();
  fileTexts = new Map();
  const handler = makeFileHandler(mainPath, LIMITS, texts);
  const parser = new ink.InkParser(req.text, mainPath, onParserMessage, null, handler);
  try {
    story = parser.ParseStory();
  } catch (e) {
    if (e instanceof RangeError) return { fatal: 'deep' };
    return { fatal: 'parse', detail: String(e && e.message || e).slice(0, 300) };
  }
  fileTexts.set(mainPath, req.text.split('\n'));
  for (const [name, text] of texts) fileTexts.set(name, text.split('\n'));
  out.files = [...texts.keys()];
  // every message the compiler gives while building the runtime, with the object's own place
  const original = story.Error;
  story.Error = (message, source, isWarning) => {
    const w = source ? where(source) : { file: null, line: null };
    const type = source && tn(source) === 'AuthorWarning' ? 'todo' : isWarning ? 'warning' : 'error';
    addMessage(type, w.file, w.line, message);
    return original.call(story, message, source, isWarning);
  };
  let resolved = false;
  const resolve = story.ResolveReferences.bind(story);
  story.ResolveReferences = (ctx) => {
    resolved = true;
    return resolve(ctx);
  };
  const quiet = () => {};
  try {
    story.ExportRuntime(quiet);
    if (!resolved) {
      try { resolve(story); } catch (e) { /* what could be resolved was */ }
    }
  } catch (e) {
    if (e instanceof RangeError) return { fatal: 'deep' };
    addMessage('error', null, null, `internal: ${String(e && e.message || e).slice(0, 200)}`);
    return { fatal: 'export', detail: String(e && e.message || e).slice(0, 300), messages: out.messages };
  }
  const rt = story._runtimeObject;
  const rootContainer = rt && rt.mainContentContainer ? rt.mainContentContainer : (isContainer(rt) ? rt : null);
  if (!rootContainer) return { fatal: 'export', detail: 'no runtime', messages: out.messages };
  linkRuntime(story);
  const objects = collect(story);
  // the scenes: the top, knots, stitches, gathers and labelled choices outside functions
  const top = rootContainer.content.find((x) => isContainer(x)) || null;
  if (top) addScene('top', '(top)', top, { file: mainPath, line: 1 }, story);
  for (const p of objects) {
    const t = tn(p);
    if ((t === 'Knot' || t === 'Stitch') && !p.isFunction && isContainer(p._runtimeObject)) {
      addScene(t === 'Knot' ? 'knot' : 'stitch', flowId(p), p._runtimeObject, where(p), p);
    } else if (t === 'Gather' && ownDm(p) && !inFunction(p) && isContainer(p._runtimeObject)) {
      const flow = closestFlow(p);
      const w = where(p);
      addScene('gather', `${flowId(flow)}.${p.name || `gather-${w.line}`}`, p._runtimeObject, w, flow,
        { label: p.name || null });
    } else if (t === 'Choice' && p.name && !inFunction(p) && isContainer(p._innerContentContainer)) {
      const flow = closestFlow(p);
      // the labelled choice's scene is its body (where `-> label` goes and what is
      // counted); the container that offers it (`_runtimeObject`, holding the choice
      // point and its start content) is part of the menu the flow runs through
      addScene('label', `${flowId(flow)}.${p.name}`, p._innerContentContainer, where(p), flow,
        { title: choiceText(p) });
    }
  }
  queue.push(...scenes);
  let aborted = null;
  try {
    while (queue.length) {
      const sc = queue.shift();
      if (sc.exits === null) walkScene(sc);
    }
  } catch (e) {
    if (e instanceof Budget) aborted = e.message;
    else if (e instanceof RangeError) aborted = 'deep';
    else throw e;
  }
  // diverts, tunnels and threads inside functions: the function only computes
  for (const p of objects) {
    const t = tn(p);
    if ((t === 'Divert' || t === 'TunnelOnwards') && inFunction(p) && ownDm(p) && !(p.isFunctionCall)) {
      const w = where(p);
      out.accounted.push({ file: w.file, line: w.line, why: 'function' });
    }
  }
  describe(objects);
  stoppedEarly(objects);
  out.aborted = aborted;
  out.scenes = scenes.map((sc) => ({ key: sc.key, id: sc.id, kind: sc.kind, file: sc.file, line: sc.line,
    title: sc.title || null, flow: flowName(sc.flow), exits: sc.exits || [], runsOut: sc.runsOut,
    runsOutAt: sc.runsOutAt || null, after: sc.after || null }));
  return out;
}

function main() {
  let req;
  try {
    req = JSON.parse(fs.readFileSync(0, 'utf8'));
  } catch (e) {
    emit({ fatal: 'request', detail: String(e && e.message || e).slice(0, 300) });
    return;
  }
  let doc;
  try {
    doc = run(req);
  } catch (e) {
    doc = { fatal: e instanceof RangeError ? 'deep' : 'internal', detail: String(e && e.stack || e).slice(0, 600),
      messages: out.messages };
  }
  emit(doc);
}

main();
