#!/usr/bin/env node
// Engine facts for a Twine story of corpus/twine/ (Twee 3 .twee, Twine 1 Twee
// .tw, or Twine 2 published/archive HTML), never from storygraph.
//
//   node benchmarks/corpus/twine_truth.js corpus/twine/<slug>
//
// Harlowe and SugarCube run only in a browser, and their code is not in this
// repository; random play in headless Chromium was not done (see
// benchmarks/corpus/README.md). What this records is what the formats'
// documented rules fix without running a story:
// - the passages (name, tags, file, line), the story format and version, the
//   start passage (StoryData "start", tw-storydata startnode, else the
//   passage named Start as Twine 1 and Tweego do);
// - the passages each engine treats specially by name or tag (not story
//   content that a reader navigates to): StoryTitle, StoryData, StoryInit,
//   StoryAuthor, StoryMenu, StoryCaption, PassageReady/Done/Header/Footer,
//   StoryIncludes, StorySubtitle, StoryBanner, StoryShare, MenuOptions, and
//   the tags script, stylesheet, widget, startup, header, footer, debug-*,
//   Twine.image, annotation/note;
// - duplicate passage names (the engine keeps one).
// No link is extracted: which passages a link reaches is what storygraph's
// importer decides, and this file is the check on it.
'use strict';
const fs = require('fs');
const path = require('path');
const { parseArgs, writeTruth, repoRelative } = require('./common');

const SPECIAL_NAMES = {
  all: ['StoryTitle', 'StoryData'],
  sugarcube: ['StoryInit', 'StoryMenu', 'StoryCaption', 'StoryBanner', 'StorySubtitle', 'StoryAuthor', 'StoryShare', 'StoryInterface', 'PassageReady', 'PassageDone', 'PassageHeader', 'PassageFooter', 'MenuOptions', 'MenuShare', 'MenuStory'],
  harlowe: [],
  twine1: ['StoryAuthor', 'StorySubtitle', 'StoryMenu', 'StoryIncludes', 'StorySettings', 'StoryInit', 'StoryCaption', 'StoryShare', 'PassageReady', 'PassageDone', 'MenuOptions'],
};
const SPECIAL_TAGS = {
  sugarcube: ['script', 'stylesheet', 'widget', 'Twine.image', 'init', 'nobr'],
  harlowe: ['startup', 'debug-startup', 'header', 'debug-header', 'footer', 'debug-footer', 'script', 'stylesheet', 'Twine.image'],
  twine1: ['script', 'stylesheet', 'widget', 'Twine.image', 'annotation', 'Twine.private'],
};

function unescapeHtml(s) {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

function fromTwee(file, text, twine1) {
  const passages = [];
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  let cur = null;
  lines.forEach((line, i) => {
    const m = /^::\s*(.*?)\s*(?:\[([^\]]*)\])?\s*(\{.*\})?\s*$/.exec(line);
    if (m && !line.startsWith(':::')) {
      if (cur) passages.push(cur);
      const name = m[1].replace(/\\(.)/g, '$1');
      cur = { name, tags: m[2] ? m[2].trim().split(/\s+/).filter(Boolean) : [], file, line: i + 1, text: [] };
    } else if (cur) cur.text.push(line);
  });
  if (cur) passages.push(cur);
  const out = { format: twine1 ? 'Twine 1 (Sugarcane/Jonah or SugarCube 1, per the .tws target)' : null, format_version: null, start: null };
  for (const p of passages) {
    p.text = p.text.join('\n');
    if (p.name === 'StoryData') {
      try {
        const data = JSON.parse(p.text);
        out.format = data.format || null;
        out.format_version = data['format-version'] || null;
        out.start = data.start || null;
      } catch (e) { out.story_data_error = e.message; }
    }
  }
  return { passages, ...out };
}

function fromHtml(file, text) {
  const sd = /<tw-storydata([^>]*)>/i.exec(text);
  if (sd) {
    const attr = (name) => { const m = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(sd[1]); return m ? unescapeHtml(m[1]) : null; };
    const passages = [];
    const re = /<tw-passagedata([^>]*)>([\s\S]*?)<\/tw-passagedata>/gi;
    let m;
    while ((m = re.exec(text))) {
      const a = (name) => { const x = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(m[1]); return x ? unescapeHtml(x[1]) : null; };
      const line = text.slice(0, m.index).split('\n').length;
      passages.push({ name: a('name'), pid: a('pid'), tags: (a('tags') || '').split(/\s+/).filter(Boolean), file, line, text: unescapeHtml(m[2]) });
    }
    const startPid = attr('startnode');
    const start = passages.find((p) => p.pid === startPid);
    return { passages, format: attr('format'), format_version: attr('format-version'), start: start ? start.name : null, startnode: startPid };
  }
  // Twine 1: <div tiddler="Name" tags="...">text</div> inside #storeArea.
  const passages = [];
  const re = /<div tiddler="([^"]*)"([^>]*)>([\s\S]*?)<\/div>/gi;
  let m;
  while ((m = re.exec(text))) {
    const tags = /tags="([^"]*)"/.exec(m[2]);
    passages.push({ name: unescapeHtml(m[1]), tags: tags ? tags[1].split(/\s+/).filter(Boolean) : [], file, line: text.slice(0, m.index).split('\n').length, text: unescapeHtml(m[3]) });
  }
  return { passages, format: 'Twine 1', format_version: null, start: null };
}

function main() {
  const args = parseArgs(process.argv.slice(2), {});
  const dir = path.resolve(args._[0]);
  const started = Date.now();
  const files = fs.readdirSync(dir).filter((f) => /\.(twee|tw|tw2|html?)$/i.test(f)).sort();
  let passages = [];
  let meta = { format: null, format_version: null, start: null };
  for (const f of files) {
    const text = fs.readFileSync(path.join(dir, f), 'utf-8');
    const got = /\.html?$/i.test(f) ? fromHtml(f, text) : fromTwee(f, text, /\.tw$/i.test(f));
    passages = passages.concat(got.passages);
    for (const k of ['format', 'format_version', 'start', 'startnode']) if (got[k] && !meta[k]) meta[k] = got[k];
  }
  const fmt = /sugarcube/i.test(meta.format || '') ? 'sugarcube' : /harlowe/i.test(meta.format || '') ? 'harlowe' : 'twine1';
  const startRule = meta.start ? (meta.startnode ? 'tw-storydata startnode' : 'StoryData "start"') : 'passage named Start (Twine 1 / Tweego default)';
  const start = meta.start || (passages.some((p) => p.name === 'Start') ? 'Start' : null);
  const specialNames = new Set([...SPECIAL_NAMES.all, ...SPECIAL_NAMES[fmt]]);
  const specialTags = new Set(SPECIAL_TAGS[fmt]);
  const counts = new Map();
  passages.forEach((p) => counts.set(p.name, (counts.get(p.name) || 0) + 1));
  const truth = {
    story: repoRelative(dir),
    format: 'twine',
    story_format: meta.format,
    story_format_version: meta.format_version,
    engine_rules: fmt,
    tool: 'benchmarks/corpus/twine_truth.js (static facts fixed by the story format documentation; no story run)',
    tool_version: null,
    node_version: process.version,
    command: `node benchmarks/corpus/twine_truth.js ${repoRelative(dir)}`,
    date: new Date().toISOString(),
    files,
    start_passage: start,
    start_rule: startRule,
    start_exists: Boolean(start && counts.has(start)),
    passages: passages.map((p) => {
      const special = specialNames.has(p.name) ? `special name (${p.name})` : p.tags.filter((t) => specialTags.has(t) || /^debug-/.test(t)).map((t) => `tag ${t}`).join(', ') || null;
      return { name: p.name, tags: p.tags, file: p.file, line: p.line, chars: p.text.length, special };
    }),
    duplicate_names: [...counts.entries()].filter(([, k]) => k > 1).map(([name, k]) => ({ name, passages: k })),
    random_play: { done: false, why: 'Harlowe/SugarCube/Twine 1 engines run only in a browser and are not part of this repository; see benchmarks/corpus/README.md' },
  };
  truth.story_passages = truth.passages.filter((p) => !p.special).length;
  truth.elapsed_seconds = Number(((Date.now() - started) / 1000).toFixed(2));
  writeTruth(dir, truth);
}

main();
