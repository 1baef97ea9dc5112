/**
 * A stand-in for the browser's WebSocket, the boundary the live-updates tests fake (happy-dom's
 * own would dial a real server). A socket stays connecting until the test accepts, refuses or
 * drops it; what the page sends is kept in `sent`.
 */
export class FakeWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;

  /** Every socket made since the test began, oldest first. */
  static readonly made: FakeWebSocket[] = [];
  static latest() {
    return FakeWebSocket.made.at(-1);
  }

  readyState = FakeWebSocket.CONNECTING;
  readonly sent: string[] = [];
  /** How the page closed it, if it did. */
  closedWith: { code?: number; reason?: string } | null = null;

  constructor(readonly url: string) {
    super();
    FakeWebSocket.made.push(this);
  }

  get token() {
    return new URL(this.url).searchParams.get('token');
  }

  send(data: string) {
    if (this.readyState !== FakeWebSocket.OPEN)
      throw new DOMException('Still in CONNECTING state', 'InvalidStateError');
    this.sent.push(data);
  }

  close(code?: number, reason?: string) {
    if (this.readyState >= FakeWebSocket.CLOSING) return;
    this.closedWith = { code, reason };
    const wasOpen = this.readyState === FakeWebSocket.OPEN;
    this.readyState = FakeWebSocket.CLOSING;
    // As in a browser, the close event comes later, from the event loop.
    queueMicrotask(() => this.#finish(wasOpen ? (code ?? 1005) : 1006, !wasOpen));
  }

  // Test controls: what the server or the network does.

  accept() {
    this.readyState = FakeWebSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }

  /** The handshake fails (refused, unreachable): a browser sees an error and a close, never the status. */
  refuse() {
    this.#finish(1006, true);
  }

  receive(data: unknown) {
    this.dispatchEvent(
      Object.assign(new Event('message'), { data: typeof data === 'string' ? data : JSON.stringify(data) }),
    );
  }

  /** The server or the network ends an open socket. */
  drop(code = 1006) {
    this.#finish(code, code === 1006);
  }

  #finish(code: number, withError: boolean) {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.readyState = FakeWebSocket.CLOSED;
    if (withError) this.dispatchEvent(new Event('error'));
    this.dispatchEvent(Object.assign(new Event('close'), { code, wasClean: code !== 1006 }));
  }
}
