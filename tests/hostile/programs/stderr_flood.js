// 256 MiB on stderr, synchronously.
const fs = require('fs');
const chunk = Buffer.alloc(1 << 20, 'e');
for (let i = 0; i < 256; i++) fs.writeSync(2, chunk);
