// SPDX-License-Identifier: GPL-3.0-or-later
// Drives `sandbox-studio mcp` with the official MCP TypeScript SDK v2 client
// (@modelcontextprotocol/client) in the stateless 2026-07-28 revision, over stdio or
// Streamable HTTP, against the real engine (dockerd):
//   node sdk2_client_test.mjs --transport stdio|http --binary PATH --modules NODE_MODULES
// The client negotiates the era itself (versionNegotiation 'auto': a server/discover probe,
// on a throw-away sibling process for stdio) and must end up modern. Checks: discover,
// tools/list (cache hints), execute_code with text + structuredContent + matplotlib images,
// progress notifications, a notebook session across calls (and, on HTTP, across two client
// connections: the session id is the only state), cancellation (stdio: notifications/
// cancelled; HTTP: closing the response stream) with the sandbox removed, error results and
// bad input; then raw wire checks the client cannot provoke: -32022 naming the supported
// versions, -32602 for a missing or garbled _meta, HTTP header mismatches (-32020, 400),
// unknown and removed methods, no Mcp-Session-Id, and the era lock on stdio.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { check, finish, loaderFor, parseArgs, sandboxesOf, sleep, textOf, waitFor } from './harness.mjs';

const args = parseArgs();
const transportKind = args.transport;
const binary = args.binary;
const modules = args.modules;
if (!['stdio', 'http'].includes(transportKind) || !binary || !modules) {
    console.error('usage: node sdk2_client_test.mjs --transport stdio|http --binary PATH --modules NODE_MODULES');
    process.exit(2);
}

const load = loaderFor(modules);
const { Client, StreamableHTTPClientTransport, ProtocolError } = await load('@modelcontextprotocol/client');
const { StdioClientTransport } = await load('@modelcontextprotocol/client/stdio');
import { readFileSync } from 'node:fs';
const clientPkg = JSON.parse(readFileSync(path.join(modules, '@modelcontextprotocol/client/package.json'), 'utf8'));

const MODERN = '2026-07-28';
const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const CINFO = 'io.modelcontextprotocol/clientInfo';

/// Ids of the engine process's sandboxes that run a process whose command line has `marker`.
async function runningWith(pid, marker) {
    const out = [];
    for (const c of await sandboxesOf(pid)) {
        if (c.State !== 'running') continue;
        const top = await new Promise((resolve) => {
            const req = http.request({ socketPath: '/var/run/docker.sock', path: `/v1.41/containers/${c.Id}/top?ps_args=-eo%20pid,args` }, (res) => {
                let body = '';
                res.on('data', (d) => (body += d));
                res.on('end', () => {
                    try {
                        resolve(JSON.parse(body));
                    } catch {
                        resolve({});
                    }
                });
            });
            req.on('error', () => resolve({}));
            req.end();
        });
        if ((top.Processes ?? []).some((p) => p.join(' ').includes(marker))) out.push(c.Id);
    }
    return out;
}
const isPng = (i) => i.mimeType === 'image/png' && Buffer.from(i.data, 'base64').subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const envelope = (version = MODERN) => ({ [PV]: version, [CINFO]: { name: 'raw-2026', version: '1' }, [CAPS]: {} });

// --- server ------------------------------------------------------------------------------
let serverPid;
let httpChild;
const token = 'test-token-' + Math.random().toString(36).slice(2);
let url;
if (transportKind === 'http') {
    httpChild = spawn(binary, ['mcp', '--http', '0', '--token', token], { stdio: ['ignore', 'pipe', 'pipe'] });
    serverPid = httpChild.pid;
    url = await new Promise((resolve, reject) => {
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
}
const newTransport = () =>
    transportKind === 'stdio'
        ? new StdioClientTransport({ command: binary, args: ['mcp'], stderr: 'inherit', env: { ...process.env } })
        : new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
const newClient = (name = 'sandbox-studio-sdk2-test') =>
    new Client({ name, version: '2.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });

const transport = newTransport();
const client = newClient();
await client.connect(transport);
if (transportKind === 'stdio') serverPid = transport.pid;
console.log(`@modelcontextprotocol/client ${clientPkg.version} connected over ${transportKind}; server pid ${serverPid}`);

// --- era and discover ----------------------------------------------------------------------
check(client.getProtocolEra() === 'modern', 'the v2 client negotiated the modern era (server/discover probe)', client.getProtocolEra());
check(client.getNegotiatedProtocolVersion() === MODERN, `negotiated ${MODERN}`, client.getNegotiatedProtocolVersion());
check(client.getServerVersion()?.name === 'sandbox-studio', 'serverInfo from the discover result _meta', client.getServerVersion());
check(client.getServerCapabilities()?.tools !== undefined, 'discover: tools capability', client.getServerCapabilities());
check(typeof client.getInstructions() === 'string' && client.getInstructions().includes('execute_code'), 'discover: instructions');
if (transportKind === 'http') check(transport.sessionId === undefined, 'HTTP: no Mcp-Session-Id was issued', transport.sessionId);
const disc = await client.discover();
check(Array.isArray(disc.supportedVersions) && disc.supportedVersions.includes(MODERN), 'server/discover: supportedVersions names 2026-07-28', disc);
check(Number.isInteger(disc.ttlMs) && ['public', 'private'].includes(disc.cacheScope), 'server/discover: ttlMs and cacheScope', disc);

// --- tools/list ----------------------------------------------------------------------------
const listed = await client.listTools();
const names = listed.tools.map((t) => t.name).sort();
const expected = ['close_session', 'create_session', 'download_file', 'execute_cell', 'execute_code', 'list_languages', 'upload_file'];
check(JSON.stringify(names) === JSON.stringify(expected), 'tools/list names every tool', names);
check(Number.isInteger(listed.ttlMs) && listed.cacheScope === 'private', 'tools/list carries ttlMs and cacheScope', { ttlMs: listed.ttlMs, cacheScope: listed.cacheScope });
const exec = listed.tools.find((t) => t.name === 'execute_code');
check(exec?.inputSchema?.required?.includes('code') && exec?.outputSchema?.properties?.exit_code, 'execute_code has input and output schemas', exec);

// --- execute_code: text + structuredContent + images + progress ------------------------------
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
    { onprogress: (p) => progress.push(p), timeout: 120000 },
);
const images = (plot.content ?? []).filter((c) => c.type === 'image');
check(!plot.isError, 'execute_code (python plot) is not an error', textOf(plot));
check(textOf(plot).includes('plotted 42'), 'text content has the output');
check(plot.structuredContent?.exit_code === 0 && plot.structuredContent?.stdout?.includes('plotted 42'), 'structuredContent: exit_code 0 and stdout', plot.structuredContent);
check(images.length === 2 && images.every(isPng), 'both matplotlib figures come back as PNG image content', images.map((i) => i.mimeType));
check(progress.length >= 1 && progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress), 'progress notifications arrive, increasing', progress);
check(plot._meta?.['io.modelcontextprotocol/serverInfo']?.name === 'sandbox-studio', 'the tools/call result names the server in _meta', plot._meta);

// --- error results and bad input -----------------------------------------------------------
const failing = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'import sys\nprint("oops", file=sys.stderr)\nsys.exit(3)' } });
check(failing.structuredContent?.exit_code === 3 && failing.structuredContent?.stderr.includes('oops'), 'a failing program: exit code 3 and stderr', failing.structuredContent);
const blocked = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: "print(open('/var/run/docker.sock'))" } });
check(blocked.isError === true && textOf(blocked).includes('engine-socket'), 'policy block: an isError result naming the rule', textOf(blocked));
const badLang = await client.callTool({ name: 'execute_code', arguments: { language: 'cobol', code: 'x' } });
check(badLang.isError === true && textOf(badLang).includes('Unknown language'), 'unknown language: isError result', badLang);
const badArgs = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 42 } });
check(badArgs?.isError === true && textOf(badArgs).includes('code must be a string'), 'wrong argument type: isError result naming the argument', badArgs);
try {
    await client.callTool({ name: 'no_such_tool', arguments: {} });
    check(false, 'unknown tool is a JSON-RPC error');
} catch (e) {
    check(e instanceof ProtocolError && e.code === -32602, 'unknown tool: -32602', { code: e.code, message: e.message });
}

// --- notebook session: an explicit handle, no protocol session -----------------------------
const created = await client.callTool({ name: 'create_session', arguments: { language: 'python' } }, { timeout: 120000 });
const sid = created.structuredContent?.session_id;
check(!created.isError && typeof sid === 'string', 'create_session returns a session id', created);
if (sid) {
    const c1 = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'x = 41' } });
    check(c1.structuredContent?.status === 'ok', 'cell 1 (x = 41) ok', c1.structuredContent);
    const c2 = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'x + 1' } });
    check(c2.structuredContent?.result === '42', 'cell 2 (x + 1) answers 42: state kept across calls', c2.structuredContent);
    const c3 = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'import matplotlib.pyplot as plt\nplt.plot([3, 1, 2])\nplt.show()' } });
    check((c3.content ?? []).some((c) => c.type === 'image' && isPng(c)), 'a cell plot comes back as an image', c3.content?.map((c) => c.type));
    if (transportKind === 'http') {
        // Stateless: a second client connection with the same token continues the session.
        const other = newClient('second-connection');
        await other.connect(newTransport());
        const c4 = await other.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'x * 2' } });
        check(c4.structuredContent?.result === '82', 'HTTP: another connection of the same token reaches the session (x * 2 = 82)', c4.structuredContent);
        await other.close();
    }
    const closed = await client.callTool({ name: 'close_session', arguments: { session_id: sid } });
    check(closed.structuredContent?.closed === true, 'close_session', closed);
    const after = await client.callTool({ name: 'execute_cell', arguments: { session_id: sid, code: 'x' } });
    check(after.isError === true && textOf(after).includes('Unknown session'), 'a closed session is gone', after);
}
const bogus = await client.callTool({ name: 'execute_cell', arguments: { session_id: 'nb-0000', code: 'x' } });
check(bogus.isError === true && textOf(bogus).includes('Unknown session'), 'an unknown session id is an isError result', bogus);

// --- cancellation --------------------------------------------------------------------------
// The run starts `sleep 301` (py-subprocess is a warn finding: it runs); the sandbox running
// it is found by its process list, whether it came from the warm pool or not.
const marker = 'sleep 301';
const controller = new AbortController();
const longRun = client
    .callTool(
        { name: 'execute_code', arguments: { language: 'python', code: 'import subprocess\nprint("started", flush=True)\nsubprocess.run(["sleep", "301"])', timeout: 400 } },
        { signal: controller.signal, timeout: 600000 },
    )
    .then(
        (r) => ({ ok: r }),
        (e) => ({ err: e }),
    );
const running = await waitFor(async () => { const ids = await runningWith(serverPid, marker); return ids.length ? ids : undefined; }, 30000);
check(running !== undefined, 'the long run has a sandbox while it runs (its process list shows sleep 301)');
await sleep(1000);
const t0 = Date.now();
controller.abort('test cancels the run');
const outcome = await longRun;
check(outcome.err !== undefined, 'the cancelled request is abandoned by the client', outcome);
const remaining = async () => (await sandboxesOf(serverPid)).filter((c) => (running ?? []).includes(c.Id));
const gone = await waitFor(async () => (await remaining()).length === 0, 20000);
check(running !== undefined && gone, `${transportKind === 'http' ? 'closing the response stream' : 'notifications/cancelled'} removed the run's sandbox (${Date.now() - t0} ms)`, await remaining());
const afterCancel = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'print("still here")' } });
check(afterCancel.structuredContent?.stdout === 'still here\n', 'the server serves after a cancellation', afterCancel.structuredContent);

// --- raw wire checks -----------------------------------------------------------------------
if (transportKind === 'http') {
    const post = async (body, headers = {}) => {
        const r = await fetch(url, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
            body: JSON.stringify(body),
        });
        const text = await r.text();
        let json;
        try {
            json = JSON.parse(text);
        } catch {}
        return { status: r.status, json, text, headers: r.headers };
    };
    const std = (method, name, version = MODERN) => ({ 'MCP-Protocol-Version': version, 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) });
    const ok = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }, std('tools/list'));
    check(ok.status === 200 && ok.json?.result?.resultType === 'complete' && ok.headers.get('mcp-session-id') === null, 'raw: tools/list 200, resultType complete, no Mcp-Session-Id', ok.status);
    const unsup = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope('2099-01-01') } }, std('tools/list', undefined, '2099-01-01'));
    check(unsup.status === 400 && unsup.json?.error?.code === -32022 && unsup.json?.id === 2, 'raw: unsupported version: 400 with -32022', unsup.json);
    check(unsup.json?.error?.data?.requested === '2099-01-01' && ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'].every((v) => unsup.json?.error?.data?.supported?.includes(v)), 'raw: -32022 data names requested and every supported version', unsup.json?.error?.data);
    const noCaps = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { [PV]: MODERN } } }, std('tools/list'));
    check(noCaps.status === 400 && noCaps.json?.error?.code === -32602 && noCaps.json.error.message.includes('clientCapabilities'), 'raw: missing clientCapabilities: 400 with -32602 naming it', noCaps.json);
    const noMeta = await post({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }, std('tools/list'));
    check(noMeta.status === 400 && noMeta.json?.error?.code === -32602, 'raw: MCP-Protocol-Version 2026-07-28 without _meta: 400 with -32602', noMeta.json);
    const garbled = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { [PV]: 20260728, [CAPS]: {} } } }, std('tools/list'));
    check(garbled.status === 400 && garbled.json?.error?.code === -32602, 'raw: a protocolVersion that is not a string: 400 with -32602', garbled.json);
    const mism = await post({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: envelope() } }, std('tools/call'));
    check(mism.status === 400 && mism.json?.error?.code === -32020, 'raw: Mcp-Method mismatch: 400 with -32020', mism.json);
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_languages', arguments: {}, _meta: envelope() } };
    const noName = await post(call, std('tools/call'));
    check(noName.status === 400 && noName.json?.error?.code === -32020 && noName.json.error.message.includes('Mcp-Name'), 'raw: tools/call without Mcp-Name: 400 with -32020', noName.json);
    const b64 = await post(call, std('tools/call', '=?base64?' + Buffer.from('list_languages').toString('base64') + '?='));
    check(b64.status === 200 && Array.isArray(b64.json?.result?.structuredContent?.languages), 'raw: a Base64-sentinel Mcp-Name is decoded', b64.status);
    const verMism = await post({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: envelope() } }, std('tools/list', undefined, '2025-11-25'));
    check(verMism.status === 400 && verMism.json?.error?.code === -32020, 'raw: MCP-Protocol-Version header disagreeing with _meta: 400 with -32020', verMism.json);
    for (const m of ['ping', 'logging/setLevel', 'resources/list']) {
        const r = await post({ jsonrpc: '2.0', id: 9, method: m, params: { _meta: envelope() } }, std(m));
        check(r.status === 404 && r.json?.error?.code === -32601, `raw: ${m} in 2026-07-28: 404 with -32601`, r.json);
    }
    const legacyNoInit = await post({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: {} });
    check(legacyNoInit.status === 400 && legacyNoInit.json?.error?.code === -32600, 'raw: a request with neither _meta nor a session is still refused (400, -32600)', legacyNoInit.json);
    const batch = await post([{ jsonrpc: '2.0', id: 11, method: 'tools/list', params: { _meta: envelope() } }], std('tools/list'));
    check(batch.status === 400 && batch.json?.error?.code === -32600, 'raw: a batch with a 2026-07-28 request: 400 with -32600', batch.json);
} else {
    const raw = spawn(binary, ['mcp'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let buf = '';
    const msgs = [];
    raw.stdout.on('data', (c) => {
        buf += c;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (line.trim()) msgs.push(JSON.parse(line));
        }
    });
    const ask = async (m) => {
        raw.stdin.write(JSON.stringify(m) + '\n');
        return waitFor(() => msgs.find((x) => x.id === m.id && !x.method), 20000, 20);
    };
    const unsup = await ask({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope('1900-01-01') } });
    check(unsup?.error?.code === -32022 && unsup.error.data?.supported?.includes(MODERN) && unsup.error.data?.supported?.includes('2025-11-25') && unsup.error.data?.requested === '1900-01-01', 'raw stdio: unsupported version: -32022 naming the supported versions', unsup);
    const noCaps = await ask({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_languages', _meta: { [PV]: MODERN } } });
    check(noCaps?.error?.code === -32602 && noCaps.error.message.includes('clientCapabilities'), 'raw stdio: missing clientCapabilities: -32602 naming it', noCaps);
    const noMeta = await ask({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} });
    check(noMeta?.error?.code === -32600 && noMeta.error.message.includes(PV), 'raw stdio: neither initialize nor _meta: -32600 saying what to send', noMeta);
    const discover = await ask({ jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta: envelope() } });
    check(discover?.result?.resultType === 'complete' && discover.result.supportedVersions?.[0] === MODERN && discover.result._meta?.['io.modelcontextprotocol/serverInfo']?.name === 'sandbox-studio', 'raw stdio: server/discover', discover);
    const ping = await ask({ jsonrpc: '2.0', id: 5, method: 'ping', params: { _meta: envelope() } });
    check(ping?.error?.code === -32601, 'raw stdio: ping does not exist in 2026-07-28 (-32601)', ping);
    const legacyAfter = await ask({ jsonrpc: '2.0', id: 6, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    check(legacyAfter?.error !== undefined, 'raw stdio: the connection spoke 2026-07-28: a later request without _meta is refused', legacyAfter);
    raw.stdin.end();
    const rx = await Promise.race([new Promise((r) => raw.once('exit', (code) => r({ code }))), sleep(30000).then(() => ({ timeout: true }))]);
    check(rx.code === 0, 'raw stdio: exit 0 at stdin EOF', rx);
}

// --- shutdown ------------------------------------------------------------------------------
if (transportKind === 'stdio') {
    // A session left open belongs to the stdio process: stdin EOF must remove it too.
    const open = await client.callTool({ name: 'create_session', arguments: { language: 'python' } }, { timeout: 120000 });
    check(typeof open.structuredContent?.session_id === 'string', 'a session is open at exit');
    const child = transport._process;
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.stdin.end();
    const ex = await Promise.race([exited, sleep(30000).then(() => ({ timeout: true }))]);
    check(ex.code === 0, 'stdio: exit status 0 at stdin EOF', ex);
    const left = await waitFor(async () => (await sandboxesOf(serverPid)).length === 0, 5000);
    check(left, 'stdio: no sandbox left after stdin EOF', await sandboxesOf(serverPid));
    await client.close().catch(() => {});
} else {
    // A session left open belongs to the token, not to a connection: SIGTERM removes it.
    const open = await client.callTool({ name: 'create_session', arguments: { language: 'python' } }, { timeout: 120000 });
    check(typeof open.structuredContent?.session_id === 'string', 'a session is open at exit');
    await client.close();
    const exited = new Promise((resolve) => httpChild.once('exit', (code, signal) => resolve({ code, signal })));
    httpChild.kill('SIGTERM');
    const ex = await Promise.race([exited, sleep(30000).then(() => ({ timeout: true }))]);
    check(ex.code === 0, 'http: exit status 0 at SIGTERM', ex);
    const none = await waitFor(async () => (await sandboxesOf(serverPid)).length === 0, 5000);
    check(none, 'http: no sandbox (sessions and warm pool included) left after exit', await sandboxesOf(serverPid));
}

finish(`sdk2 ${transportKind}`);
