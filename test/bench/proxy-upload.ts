/**
 * `npm run bench`: an upload's memory, direct and through a proxy (test/helpers/
 * upload-through-proxy.ts): the uploading process's peak RSS growth during one upload of a file
 * read from disk, at two sizes, printed (no assertions: the machine is shared; the test asserts a
 * generous bound).
 *
 * Target: through the proxy, flat in the upload's size (under 64 MB at 200 MB): the body is
 * streamed. Direct, Node's own fetch keeps a copy of what it sends until the answer (its clone of
 * the request tees the body: nodejs/undici#4058), so it grows with the size; a user's `fetch`
 * option decides that path.
 */
import { startUploadSink } from "../helpers/upload-through-proxy.js";

const sink = await startUploadSink();
try {
  console.log("upload memory: peak RSS growth of the uploading process, MB");
  for (const sizeMb of [50, 200]) {
    const direct = await sink.upload(sink.directUrl, sizeMb);
    const proxied = await sink.upload("http://seqera.test", sizeMb);
    console.log(
      `  ${sizeMb} MB upload: direct ${direct} MB, through the proxy ${proxied} MB (target: under 64 MB)`,
    );
  }
} finally {
  sink.close();
}
