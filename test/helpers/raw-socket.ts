// Raw bytes to a server over TCP, for requests no HTTP client would send (a bad request
// line, a body cut short): resolves with whatever came back before the socket closed.
import { connect } from 'node:net';

export function rawRequest(url: string, bytes: string, closeAfterWrite = false): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const sock = connect(Number(port), '127.0.0.1');
    let got = '';
    sock.on('data', (d) => (got += d));
    sock.on('error', () => resolve(got));
    sock.on('close', () => resolve(got));
    sock.write(bytes, () => {
      if (closeAfterWrite) sock.destroy();
    });
    setTimeout(() => sock.destroy(), 3000).unref();
  });
}
