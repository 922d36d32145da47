import { connect } from 'node:net';

/**
 * A request as raw bytes on its own connection, for what no client library would send. It is written without
 * ending our side (a half-closed socket gets no answer), and the socket is ended once the whole answer is in.
 * `status` is NaN when the server closed the connection without answering.
 */
export function rawRequest(port: number, text: string | Buffer): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (d: Buffer) => {
      out += d.toString('latin1');
      const [head = '', body = ''] = out.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (out.includes('\r\n\r\n') && length !== undefined && Buffer.byteLength(body, 'latin1') >= Number(length)) socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => ((e.code === 'ECONNRESET' || e.code === 'EPIPE') && out ? undefined : reject(e)));
    socket.on('close', () => {
      const [head = '', ...rest] = out.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head, body: rest.join('\r\n\r\n') });
    });
  });
}
