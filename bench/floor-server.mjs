// The bare floor: a node:http server that answers every request with the bytes and headers a page answered
// once (captured by bench/distinct.ts), so the bench can show what this machine does without Next in the way.
// Usage: node bench/floor-server.mjs <port> <capture.json>   (capture: { headers: {…}, bodyBase64 })
import fs from "node:fs";
import http from "node:http";

const [port, file] = process.argv.slice(2);
const capture = JSON.parse(fs.readFileSync(file, "utf8"));
const body = Buffer.from(capture.bodyBase64, "base64");
const headers = { ...capture.headers, "content-length": String(body.length) };

http
  .createServer((req, res) => {
    req.resume();
    res.writeHead(200, headers);
    res.end(body);
  })
  .listen(Number(port), "127.0.0.1", () => console.log(`floor listening on ${port}`));
