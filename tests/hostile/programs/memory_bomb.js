// Off-heap buffers, zero-filled (so touched): the cgroup's OOM killer ends it.
const blocks = [];
for (;;) blocks.push(Buffer.alloc(8 << 20, 1));
