// SPDX-License-Identifier: GPL-3.0-or-later
// Drives `sandbox-studio mcp` with the official MCP TypeScript SDK client, over stdio or
// Streamable HTTP, against the real engine (dockerd):
//   node sdk_client_test.mjs --transport stdio|http --binary PATH --modules NODE_MODULES
// Checks: initialize + version negotiation, tools/list with schemas, Python with plots
// (every figure comes back as image content), progress notifications, a notebook session
// across calls (x = 41, then x + 1 -> 42), file upload/download in the session,
// cancellation of a long run (the request is abandoned and its container removed), tool
// and argument errors; stdio: clean exit at stdin EOF and at SIGTERM with a run in flight
// and no container left.
import { spawn } from 'node:child_process';
import { check, finish, loaderFor, parseArgs, sandboxesOf, sleep, textOf, waitFor } from './harness.mjs';

const args = parseArgs();
const transportKind = args.transport;
const binary = args.binary;
const modules = args.modules;
if (!['stdio', 'http'].includes(transportKind) || !binary || !modules) {
    console.error('usage: node sdk_client_test.mjs --transport stdio|http --binary PATH --modules NODE_MODULES');
    process.exit(2);
}

const load = loaderFor(modules);
const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await load('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = await load('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { McpError } = await load('@modelcontextprotocol/sdk/types.js');


// --- server ------------------------------------------------------------------------------
let serverPid;
let httpChild;
let transport;
const token = 'test-token-' + Math.random().toString(36).slice(2);
if (transportKind === 'stdio') {
    transport = new StdioClientTransport({ command: binary, args: ['mcp'], stderr: 'inherit', env: { ...process.env } });
} else {
    httpChild = spawn(binary, ['mcp', '--http', '0', '--token', token], { stdio: ['ignore', 'pipe', 'pipe'] });
    serverPid = httpChild.pid;
    const url = await new Promise((resolve, reject) => {
        let err = '';
        const t = setTimeout(() => reject(new Error(`no URL on stderr within 20 s: ${err}`)), 20000);
        httpChild.stderr.on('data', (c) => {
            err += c;
            process.stderr.write(c);
            const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
            if (m) {
                clearTimeout(t);
                resolve(m[1]);
            }
        });
        httpChild.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
    });
    httpChild.stderr.removeAllListeners('data');
    httpChild.stderr.on('data', (c) => process.stderr.write(c));
    args.url = url;
    transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
}

const client = new Client({ name: 'sandbox-studio-sdk-test', version: '1.0.0' }, { capabilities: {} });
await client.connect(transport);
if (transportKind === 'stdio') serverPid = transport.pid;
console.log(`connected over ${transportKind}; server pid ${serverPid}`);

// --- initialize --------------------------------------------------------------------------
const info = client.getServerVersion();
check(info?.name === 'sandbox-studio', 'initialize: serverInfo.name is sandbox-studio', info);
check(client.getServerCapabilities()?.tools !== undefined, 'initialize: tools capability', client.getServerCapabilities());
if (transportKind === 'http')
    check(transport.protocolVersion === '2025-11-25', 'initialize: negotiated 2025-11-25 (MCP-Protocol-Version sent after)', transport.protocolVersion);
check(typeof client.getInstructions() === 'string' && client.getInstructions().length > 20, 'initialize: instructions');
await client.ping();
check(true, 'ping');

// --- tools/list --------------------------------------------------------------------------
const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
const expected = ['close_session', 'create_session', 'download_file', 'execute_cell', 'execute_code', 'list_languages', 'upload_file'];
check(JSON.stringify(names) === JSON.stringify(expected), 'tools/list names every tool', names);
const exec = tools.find((t) => t.name === 'execute_code');
check(exec?.inputSchema?.required?.includes('code') && exec?.inputSchema?.properties?.language, 'execute_code has an inputSchema', exec?.inputSchema);
check(exec?.outputSchema?.properties?.exit_code && exec?.outputSchema?.properties?.oom_killed, 'execute_code has an outputSchema', exec?.outputSchema);

const langs = await client.callTool({ name: 'list_languages', arguments: {} });
const langIds = (langs.structuredContent?.languages ?? []).map((l) => l.id);
check(['python', 'javascript', 'java', 'cpp', 'go', 'r'].every((l) => langIds.includes(l)), 'list_languages names the six languages', langIds);

// --- execute_code: Python with two plots, progress ----------------------------------------
const progress = [];
const plotCode = [
    'import matplotlib.pyplot as plt',
    'plt.figure(); plt.plot([1, 2, 3], [1, 4, 9]); plt.title("squares")',
    'plt.figure(); plt.bar(["a", "b"], [3, 5])',
    'plt.show()',
    'print("plotted", 6 * 7)',
].join('\n');
const plot = await client.callTool(
    { name: 'execute_code', arguments: { language: 'python', code: plotCode, timeout: 60 } },
    undefined,
    { onprogress: (p) => progress.push(p), timeout: 120000 },
);
const images = (plot.content ?? []).filter((c) => c.type === 'image');
check(!plot.isError, 'execute_code (python plot) is not an error', textOf(plot));
check(plot.structuredContent?.exit_code === 0, 'structuredContent.exit_code is 0', plot.structuredContent);
check(plot.structuredContent?.stdout?.includes('plotted 42'), 'structuredContent.stdout has the output', plot.structuredContent?.stdout);
check(images.length === 2, 'both figures come back as image content', images.length);
check(images.every((i) => i.mimeType === 'image/png' && Buffer.from(i.data, 'base64').subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))), 'images are base64 PNGs', images.map((i) => i.mimeType));
for (const k of ['stderr', 'duration_ms', 'timed_out', 'oom_killed', 'output_truncated', 'policy_findings'])
    check(k in (plot.structuredContent ?? {}), `structuredContent has ${k}`);
check(textOf(plot).includes('plotted 42'), 'text content has the output for older clients');
check(progress.length >= 1 && progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress), 'progress notifications arrive, increasing', progress);

// A failing program is a result with its exit code, not a protocol error.
const failing = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'import sys\nprint("oops", file=sys.stderr)\nsys.exit(3)' } });
check(failing.structuredContent?.exit_code === 3 && failing.structuredContent?.stderr.includes('oops'), 'exit code 3 and stderr come back', failing.structuredContent);

// --- policy (the standard preset by default) ---------------------------------------------
const blocked = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: "print(open('/var/run/docker.sock'))" } });
check(blocked.isError === true && textOf(blocked).includes('engine-socket'), 'policy block: isError naming the rule engine-socket', textOf(blocked));
check((blocked.structuredContent?.policy_findings ?? []).some((f) => f.rule === 'engine-socket'), 'policy block: structuredContent.policy_findings has engine-socket', blocked.structuredContent);
const asking = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: "import ctypes\nprint('ran')" } });
check(asking.isError === true && textOf(asking).includes('py-native') && !textOf(asking).includes('ran\n'), 'policy ask, headless without --allow-ask: refused naming py-native', textOf(asking));
const warned = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'import subprocess\nprint(subprocess.run(["true"]).returncode)' } });
check(!warned.isError && warned.structuredContent?.stdout === '0\n' && warned.structuredContent.policy_findings.some((f) => f.rule === 'py-subprocess' && f.action === 'warn'), 'policy warn: runs, finding in structuredContent.policy_findings', warned.structuredContent);

// --- warm pool with a preloaded interpreter (zygote) ----------------------------------------
let preloaded = false;
for (let i = 0; i < 20 && !preloaded; ++i) {
    const statuses = [];
    const quick = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'print(6 * 7)' } }, undefined, { onprogress: (p) => statuses.push(p.message ?? '') });
    check(quick.structuredContent?.stdout === '42\n', 'a quick run succeeds', quick.structuredContent);
    preloaded = statuses.some((m) => m.includes('preloaded'));
    if (!preloaded) await sleep(1000);
}
check(preloaded, 'headless mcp runs in the warm pool\'s preloaded interpreter (progress says "preloaded")');

// --- errors -----------------------------------------------------------------------------
try {
    await client.callTool({ name: 'no_such_tool', arguments: {} });
    check(false, 'unknown tool is a JSON-RPC error');
} catch (e) {
    check(e instanceof McpError && e.code === -32602, 'unknown tool: -32602', { code: e.code, message: e.message });
}
const badArgs = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 42 } }).catch((e) => e);
// 2025-11-25 (SEP-1303): argument errors are tool execution errors the model can read.
check(badArgs?.isError === true && textOf(badArgs).includes('code must be a string'), 'wrong argument type: isError result naming the argument', badArgs);
const badLang = await client.callTool({ name: 'execute_code', arguments: { language: 'cobol', code: 'x' } });
check(badLang.isError === true && textOf(badLang).includes('Unknown language'), 'unknown language: isError result', badLang);

// --- notebook session --------------------------------------------------------------------
const created = await client.callTool({ name: 'create_session', arguments: { language: 'python' } }, undefined, { timeout: 120000 });
const sid = created.structuredContent?.session_id;
check(!created.isError && typeof sid === 'string', 'create_session returns a session id', created);
if (sid) {
    const c1 = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'x = 41' } });
    check(c1.structuredContent?.status === 'ok', 'cell 1 (x = 41) ok', c1.structuredContent);
    const c2 = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'x + 1' } });
    check(c2.structuredContent?.result === '42', 'cell 2 (x + 1) answers 42: state kept across calls', c2.structuredContent);
    const c3 = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'import matplotlib.pyplot as plt\nplt.plot([3, 1, 2])\nplt.show()' } });
    check((c3.content ?? []).some((c) => c.type === 'image' && c.mimeType === 'image/png'), 'a cell plot comes back as an image', c3.content?.map((c) => c.type));
    const c4 = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: '1/0' } });
    check(c4.structuredContent?.status === 'error' && c4.structuredContent?.error?.ename === 'ZeroDivisionError', 'a failing cell reports the error', c4.structuredContent);

    const payload = Buffer.from('id,value\n1,41\n2,\u00e9\n');
    const up = await client.callTool({ name: 'upload_file', arguments: { session_id: sid, path: 'data/in.csv', content_base64: payload.toString('base64') } });
    check(!up.isError && up.structuredContent?.size === payload.length, 'upload_file writes into the session', up);
    const readBack = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'open("data/in.csv", encoding="utf-8").read().splitlines()[1]' } });
    check(readBack.structuredContent?.result === "'1,41'", 'the kernel reads the uploaded file', readBack.structuredContent);
    await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'open("out.bin", "wb").write(bytes(range(256)))' } });
    const down = await client.callTool({ name: 'download_file', arguments: { session_id: sid, path: 'out.bin' } });
    const got = Buffer.from(down.structuredContent?.content_base64 ?? '', 'base64');
    check(got.length === 256 && got.every((b, i) => b === i), 'download_file returns the bytes the kernel wrote', down.structuredContent?.size);
    const escape = await client.callTool({ name: 'download_file', arguments: { session_id: sid, path: '../etc/passwd' } });
    check(escape.isError === true, 'download_file refuses paths that leave the work directory', escape);
    const missing = await client.callTool({ name: 'download_file', arguments: { session_id: sid, path: 'nope.txt' } });
    check(missing.isError === true && textOf(missing).includes('nope.txt'), 'download_file of a missing file is an error naming it', missing);

    if (transportKind === 'http') {
        // Another client (its own HTTP session) cannot reach this client's notebook.
        const other = new Client({ name: 'intruder', version: '1' }, { capabilities: {} });
        await other.connect(new StreamableHTTPClientTransport(new URL(args.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
        const stolen = await other.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'x' } });
        check(stolen.isError === true && textOf(stolen).includes('Unknown session'), "another client's session id is refused", stolen);
        await other.close();
    }
    // Calls run concurrently: two runs at once both finish with their own output.
    const [a, b] = await Promise.all([
        client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'import time\ntime.sleep(1)\nprint("a")' } }),
        client.callTool({ name: 'execute_code', arguments: { language: 'javascript', code: 'console.log("b")' } }),
    ]);
    check(a.structuredContent?.stdout === 'a\n' && b.structuredContent?.stdout === 'b\n', 'two concurrent runs each get their own output', [a.structuredContent, b.structuredContent]);

    const closed = await client.callTool({ name: 'close_session', arguments: { session_id: sid } });
    check(closed.structuredContent?.closed === true, 'close_session', closed);
    const after = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'x' } });
    check(after.isError === true && textOf(after).includes('Unknown session'), 'a closed session is gone', after);
}

// --- cancellation -------------------------------------------------------------------------
const controller = new AbortController();
const longRun = client
    .callTool(
        { name: 'execute_code', arguments: { language: 'python', code: 'import time\nprint("started", flush=True)\ntime.sleep(300)', timeout: 400 } },
        undefined,
        { signal: controller.signal, timeout: 600000 },
    )
    .then(
        (r) => ({ ok: r }),
        (e) => ({ err: e }),
    );
const appeared = await waitFor(async () => (await sandboxesOf(serverPid)).length > 0, 30000);
check(appeared, 'the long run has a sandbox while it runs');
await sleep(1000);
const t0 = Date.now();
controller.abort('test cancels the run');
const outcome = await longRun;
check(outcome.err !== undefined, 'the cancelled request is abandoned by the client', outcome);
// The warm pool's sandboxes (io.sandbox-studio.pool) stay while the server runs; any other
// must go. (At exit, the checks below require none at all.)
const nonPool = async () => (await sandboxesOf(serverPid)).filter((c) => !c.Labels?.['io.sandbox-studio.pool']);
const gone = await waitFor(async () => (await nonPool()).length === 0, 20000);
check(gone, `notifications/cancelled removed the sandbox (${Date.now() - t0} ms)`, await nonPool());
// The server keeps serving after a cancellation.
const afterCancel = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'print("still here")' } });
check(afterCancel.structuredContent?.stdout === 'still here\n', 'the server serves after a cancellation', afterCancel.structuredContent);

// --- shutdown -----------------------------------------------------------------------------
if (transportKind === 'stdio') {
    // A notebook session left open: stdin EOF must close it too.
    const open = await client.callTool({ name: 'create_session', arguments: { language: 'python' } }, undefined, { timeout: 120000 });
    check(typeof open.structuredContent?.session_id === 'string', 'a second session is open at exit');
    const child = transport._process;
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.stdin.end(); // stdin EOF, as a client that quits
    const ex = await Promise.race([exited, sleep(30000).then(() => ({ timeout: true }))]);
    check(ex.code === 0, 'stdio: exit status 0 at stdin EOF', ex);
    const left = await waitFor(async () => (await sandboxesOf(serverPid)).length === 0, 5000);
    check(left, 'stdio: no sandbox left after stdin EOF', await sandboxesOf(serverPid));
    await client.close().catch(() => {});

    // SIGTERM with a run in flight: the run is cancelled and its sandbox removed.
    const raw = spawn(binary, ['mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    raw.stdout.on('data', (c) => (out += c));
    const send = (m) => raw.stdin.write(JSON.stringify(m) + '\n');
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute_code', arguments: { language: 'python', code: 'import time\ntime.sleep(300)' } } });
    const running = await waitFor(async () => (await sandboxesOf(raw.pid)).length > 0, 30000);
    check(running, 'SIGTERM case: the run has a sandbox');
    const rawExit = new Promise((resolve) => raw.once('exit', (code, signal) => resolve({ code, signal })));
    raw.kill('SIGTERM');
    const rx = await Promise.race([rawExit, sleep(30000).then(() => ({ timeout: true }))]);
    check(rx.code === 0, 'stdio: exit status 0 at SIGTERM', rx);
    check((await sandboxesOf(raw.pid)).length === 0, 'stdio: no sandbox left after SIGTERM', await sandboxesOf(raw.pid));
    const lines = out.split('\n').filter((l) => l.trim());
    check(lines.every((l) => { try { return JSON.parse(l).jsonrpc === '2.0'; } catch { return false; } }), 'stdout carries only JSON-RPC messages', lines);
} else {
    await transport.terminateSession();
    check(true, 'DELETE ends the HTTP session');
    await client.close();
    // The warm pool's sandboxes stay while the server runs; nothing else may.
    const ownRuns = async () => (await sandboxesOf(serverPid)).filter((c) => !c.Labels?.['io.sandbox-studio.pool']);
    const left = await waitFor(async () => (await ownRuns()).length === 0, 5000);
    check(left, 'http: no sandbox left after the session ended', await ownRuns());
    const exited = new Promise((resolve) => httpChild.once('exit', (code, signal) => resolve({ code, signal })));
    httpChild.kill('SIGTERM');
    const ex = await Promise.race([exited, sleep(30000).then(() => ({ timeout: true }))]);
    check(ex.code === 0, 'http: exit status 0 at SIGTERM', ex);
    const none = await waitFor(async () => (await sandboxesOf(serverPid)).length === 0, 5000);
    check(none, 'http: no sandbox (warm pool included) left after exit', await sandboxesOf(serverPid));
}

finish(transportKind);
