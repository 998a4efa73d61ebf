import { createServer, type Server, type Socket } from 'node:net';
import { request } from './api.js';

/**
 * A bare HTTP server that closes the connection of the first request it reads without answering,
 * as a server whose keep-alive ran out closes a kept-alive connection a request is crossing; it
 * answers every later request.
 */
async function closingServer(): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      while (pending.includes('\r\n\r\n')) {
        received.push(pending.slice(0, pending.indexOf('\r\n')));
        pending = pending.slice(pending.indexOf('\r\n\r\n') + 4);
        if (received.length === 1) {
          socket.destroy();
          return;
        }
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/probe`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('e2e support: request', () => {
  it('sends a request again when the server closed its connection without answering', async () => {
    const server = await closingServer();
    try {
      const res = await request(server.url);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(server.received).toEqual(['GET /probe HTTP/1.1', 'GET /probe HTTP/1.1']);
    } finally {
      await server.close();
    }
  });
});
