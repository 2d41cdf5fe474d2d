// SPDX-License-Identifier: GPL-3.0-or-later
// JavaScript kernel of Sandbox Studio: cells that keep state in one Node.js realm.
//
// Same JSON-lines protocol as resources/helpers/python/sandbox_kernel.py. Started as
//   sh -c 'exec node --expose-internals sandbox_kernel.js 3>&1 1>&2'
// so events go to fd 3 (the exec's stdout) and nothing else can write there; user output
// through process.stdout/stderr becomes "stream" events. Top-level const/let/function
// declarations persist across cells (one global lexical scope); top-level await is
// rewritten the way Node's REPL does it (internal/repl/await). A worker thread reads
// requests so an interrupt arrives while a cell runs: it raises SIGINT, which stops
// synchronous code (breakOnSigint) and abandons a pending await.
'use strict';

const { Worker, isMainThread, parentPort } = require('worker_threads');
const fs = require('fs');

if (!isMainThread) {
    // Reader: blocking reads of fd 0, one JSON request per line.
    let pending = '';
    const buf = Buffer.alloc(65536);
    for (;;) {
        let n = 0;
        try {
            n = fs.readSync(0, buf, 0, buf.length, null);
        } catch (e) {
            if (e.code === 'EAGAIN') continue;
            break;
        }
        if (n === 0) break;
        pending += buf.toString('utf8', 0, n);
        let nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, nl).trim();
            pending = pending.slice(nl + 1);
            if (!line) continue;
            let request;
            try {
                request = JSON.parse(line);
            } catch (e) {
                parentPort.postMessage({ type: 'protocol_error', message: String(e) });
                continue;
            }
            if (request.type === 'interrupt') process.kill(process.pid, 'SIGINT');
            else parentPort.postMessage(request);
        }
    }
    parentPort.postMessage({ type: 'shutdown' });
    return;
}

const vm = require('vm');
const util = require('util');
const path = require('path');
const { createRequire } = require('module');

const PROTO_FD = 3;
let current = null;

function send(message) {
    const data = Buffer.from(JSON.stringify(message) + '\n', 'utf8');
    let off = 0;
    while (off < data.length) {
        try {
            off += fs.writeSync(PROTO_FD, data, off);
        } catch (e) {
            if (e.code !== 'EAGAIN') throw e;
        }
    }
}

function streamWriter(name) {
    const decoder = new util.TextDecoder('utf-8');
    return function write(chunk, encoding, callback) {
        if (typeof encoding === 'function') callback = encoding;
        const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
        if (text) send({ type: 'stream', id: current, name, text });
        if (typeof callback === 'function') process.nextTick(callback);
        return true;
    };
}
process.stdout.write = streamWriter('stdout');
process.stderr.write = streamWriter('stderr');

let processTopLevelAwait = null;
try {
    ({ processTopLevelAwait } = require('internal/repl/await'));
} catch (e) {
    // Without --expose-internals top-level await is unavailable; everything else works.
}

globalThis.require = createRequire(path.join(process.cwd(), 'notebook.js'));
globalThis.module = { exports: {} };
globalThis.exports = globalThis.module.exports;
globalThis.__filename = path.join(process.cwd(), 'notebook.js');
globalThis.__dirname = process.cwd();

let executionCount = 0;
let interruptReject = null;
process.on('SIGINT', () => {
    if (interruptReject) interruptReject(Object.assign(new Error('Interrupted'), { name: 'KeyboardInterrupt' }));
});

function errorEvent(e) {
    const isError = e instanceof Error || (e && typeof e === 'object' && 'stack' in e);
    let ename = isError ? e.name || 'Error' : 'Error';
    let evalue = isError ? e.message : util.inspect(e);
    if (isError && /Script execution (was )?interrupted/.test(e.message)) {
        ename = 'KeyboardInterrupt';
        evalue = 'Interrupted';
    }
    const traceback = isError && e.stack ? String(e.stack).split('\n').filter((l) => !l.includes('sandbox_kernel.js') && !l.includes('(node:')) : [String(e)];
    send({ type: 'error', id: current, ename, evalue, traceback });
}

async function execute(code) {
    executionCount += 1;
    const count = executionCount;
    const filename = `<cell ${count}>`;
    let source = code;
    let wrapped = false;
    if (processTopLevelAwait && /\bawait\b/.test(code)) {
        const rewritten = processTopLevelAwait(code);
        if (rewritten !== null) {
            source = rewritten;
            wrapped = true;
        }
    }
    try {
        let value = vm.runInThisContext(source, { filename, breakOnSigint: true });
        if (wrapped) {
            const interrupted = new Promise((_, reject) => { interruptReject = reject; });
            value = await Promise.race([value, interrupted]);
            value = value && value.value;
        } else if (value && typeof value.then === 'function') {
            // A cell whose last expression is a promise shows what it resolves to.
            const interrupted = new Promise((_, reject) => { interruptReject = reject; });
            value = await Promise.race([value, interrupted]);
        }
        interruptReject = null;
        if (value !== undefined) {
            globalThis._ = value;
            send({ type: 'execute_result', id: current, execution_count: count,
                   data: { 'text/plain': util.inspect(value, { depth: 4, colors: false }) } });
        }
        return ['ok', count];
    } catch (e) {
        interruptReject = null;
        errorEvent(e);
        return ['error', count];
    }
}

// Files the cell wrote to the output directory (new or changed since the kernel last
// looked) come back as "file" events. tmpfs timestamps lag the clock by a few ms, so
// what was seen is remembered instead of comparing with the cell's start time.
const seenFiles = new Map();
function reportFiles(send_) {
    const out = process.env.SANDBOX_OUTPUT_DIR || '/sandbox/output';
    let sent = 0;
    const walk = (dir) => {
        let entries = [];
        try {
            entries = fs.readdirSync(dir, { withFileTypes: true });
        } catch (e) {
            return;
        }
        entries.sort((a, b) => (a.name < b.name ? -1 : 1));
        for (const entry of entries) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) {
                walk(full);
                continue;
            }
            if (!entry.isFile()) continue;
            const info = fs.lstatSync(full, { bigint: true });
            const stamp = `${info.mtimeNs}:${info.size}`;
            if (seenFiles.get(full) === stamp) continue;
            seenFiles.set(full, stamp);
            if (!send_ || sent >= 50 || info.size > 16n * 1024n * 1024n) continue;
            send({ type: 'file', id: current, name: path.relative('/sandbox', full),
                   data: fs.readFileSync(full).toString('base64') });
            sent += 1;
        }
    };
    walk(out);
}

const queue = [];
let running = false;
async function pump() {
    if (running) return;
    running = true;
    while (queue.length) {
        const request = queue.shift();
        if (request.type === 'shutdown') process.exit(0);
        if (request.type === 'protocol_error') {
            send(request);
            continue;
        }
        if (request.type !== 'execute') {
            send({ type: 'protocol_error', message: `unknown request ${request.type}` });
            continue;
        }
        current = request.id;
        send({ type: 'status', id: current, state: 'busy' });
        const [status, count] = await execute(String(request.code || ''));
        try {
            reportFiles(true);
        } catch (e) {
            send({ type: 'stream', id: current, name: 'stderr', text: `sandbox: output files not collected: ${e}\n` });
        }
        send({ type: 'execute_reply', id: current, status, execution_count: count });
        send({ type: 'status', id: current, state: 'idle' });
    }
    running = false;
}

process.on('uncaughtException', (e) => errorEvent(e));
process.on('unhandledRejection', (e) => errorEvent(e));

const reader = new Worker(__filename);
reader.on('message', (request) => {
    queue.push(request);
    pump();
});
reader.unref();
reportFiles(false); // what the output directory already holds is not the cells' output
send({ type: 'ready', pid: process.pid, language: 'javascript', version: process.version });
// Keep the event loop alive while waiting for requests.
setInterval(() => {}, 1 << 30);
