// The load engine's WebSocket side (RFC 6455), free of I/O: the opening handshake, client frames (masked, as the
// RFC requires, with a per-connection key), the server's frames parsed as they arrive (split across reads, several
// per read, fragmented messages, control frames), and the echo check. Messages carry their socket and sequence
// numbers in their first 8 bytes, so that a corrupted, stale, duplicated or reordered echo is a mismatch; the rest is
// a fixed pattern holding every byte value.

/** Bytes at the start of every message holding its socket and sequence numbers. */
export const HEADER_BYTES = 8;

/** The GUID every server appends to the client's key before hashing it into `Sec-WebSocket-Accept`. */
export const WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

const decoder = new TextDecoder();

/** The fixed part of every message: byte i is `(i * 7 + 13) & 255`, so every byte value occurs. */
export function messagePattern(size: number): Uint8Array {
  const pattern = new Uint8Array(size);
  for (let i = 0; i < size; i++) pattern[i] = (i * 7 + 13) & 255;
  return pattern;
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

/** Says how an echo differs from the message it answers, or null when it is identical. */
export function echoMismatch(
  data: Uint8Array | string,
  pattern: Uint8Array,
  socket: number,
  sequence: number,
): string | null {
  if (typeof data === "string") return `a text message came back for a binary one`;
  if (data.length !== pattern.length) return `${data.length} bytes came back for ${pattern.length}`;
  const gotSocket = u32(data, 0);
  const gotSequence = u32(data, 4);
  if (gotSocket !== socket || gotSequence !== sequence) {
    return `the echo of message ${gotSequence} of socket ${gotSocket} came where message ${sequence} of socket ${socket} was due`;
  }
  for (let at = HEADER_BYTES; at < data.length; at++) {
    if (data[at] !== pattern[at]) {
      return `byte ${at} of ${data.length} is 0x${data[at].toString(16).padStart(2, "0")}, expected 0x${
        pattern[at].toString(16).padStart(2, "0")
      }`;
    }
  }
  return null;
}

/** The opening handshake's request for `path` on `host`, with the client's base64 `key`. */
export function handshakeRequest(host: string, path: string, key: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
}

/** Thrown when the server's bytes are not a WebSocket handshake or frame: the socket cannot be trusted any more. */
export class WebSocketProtocolError extends Error {}

/**
 * Reads the server's handshake response at the start of `bytes`: the length
 * of the response when it is complete and accepts the key (status 101, the
 * `Sec-WebSocket-Accept` value `accept`), 0 when more bytes are needed.
 * Throws {@linkcode WebSocketProtocolError} naming what is wrong otherwise.
 */
export function handshakeResponse(bytes: Uint8Array, accept: string): number {
  let end = -1;
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      end = i + 4;
      break;
    }
  }
  if (end < 0) return 0;
  const head = decoder.decode(bytes.subarray(0, end));
  const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
  if (status !== "101") throw new WebSocketProtocolError(`handshake answered ${head.split("\r\n")[0]}`);
  const got = /\r\nsec-websocket-accept:\s*(\S+)/i.exec(head)?.[1];
  if (got !== accept) throw new WebSocketProtocolError(`handshake accept key ${got} is not ${accept}`);
  return end;
}

/**
 * Builds the client's binary frames of one socket: every message is the
 * pattern with the socket and sequence numbers in front, masked with the
 * socket's key (the pattern is masked once; only the numbers per message).
 */
export class FrameBuilder {
  readonly #template: Uint8Array;
  readonly #offset: number;
  readonly #mask: Uint8Array;

  /** Frames of `size`-byte messages, masked with the 4-byte `mask`. */
  constructor(pattern: Uint8Array, mask: Uint8Array) {
    const size = pattern.length;
    const lengthBytes = size < 126 ? 0 : size < 65536 ? 2 : 8;
    this.#offset = 2 + lengthBytes + 4;
    const frame = new Uint8Array(this.#offset + size);
    frame[0] = 0x82; // FIN, binary
    if (lengthBytes === 0) frame[1] = 0x80 | size;
    else if (lengthBytes === 2) {
      frame[1] = 0x80 | 126;
      frame[2] = size >> 8;
      frame[3] = size & 255;
    } else {
      frame[1] = 0x80 | 127;
      for (let i = 0; i < 8; i++) frame[2 + i] = Math.floor(size / 2 ** (8 * (7 - i))) & 255;
    }
    frame.set(mask, this.#offset - 4);
    for (let i = 0; i < size; i++) frame[this.#offset + i] = pattern[i] ^ mask[i & 3];
    this.#template = frame;
    this.#mask = mask;
  }

  /** The frame of message `sequence` of `socket`, a new array (the transport may keep it until sent). */
  frame(socket: number, sequence: number): Uint8Array {
    const frame = this.#template.slice();
    const o = this.#offset;
    const m = this.#mask;
    for (let i = 0; i < 4; i++) {
      frame[o + i] = ((socket >>> (8 * i)) & 255) ^ m[i];
      frame[o + 4 + i] = ((sequence >>> (8 * i)) & 255) ^ m[i];
    }
    return frame;
  }
}

/** Receives the server's messages and control frames of one socket. */
export interface FrameSink {
  /** A whole message: binary (`text` false) or text. `data` is valid only during the call. */
  message(data: Uint8Array, text: boolean): void;
  /** A ping's payload, to be answered with a pong. */
  ping(data: Uint8Array): void;
  /** The server's close frame. */
  closeFrame(): void;
}

/** Parses a server's frames as they arrive; servers do not mask, and a masked frame is refused. */
export class FrameParser {
  #pending = new Uint8Array(0);
  #length = 0;
  #parts: Uint8Array[] = [];
  #partText = false;
  /** Whether a fragmented message has begun and not ended. */
  #fragmented = false;

  /** Feeds the next bytes; calls `sink` for every complete message or control frame. */
  feed(chunk: Uint8Array, sink: FrameSink): void {
    let buf = chunk;
    let end = chunk.length;
    if (this.#length > 0) {
      this.#append(chunk);
      buf = this.#pending;
      end = this.#length;
    }
    let at = 0;
    while (true) {
      const used = this.#one(buf, at, end, sink);
      if (used === 0) break;
      at += used;
    }
    if (buf === this.#pending) {
      this.#pending.copyWithin(0, at, end);
      this.#length = end - at;
    } else if (at < end) {
      this.#length = 0;
      this.#append(chunk.subarray(at, end));
    }
  }

  #append(bytes: Uint8Array): void {
    const need = this.#length + bytes.length;
    if (need > this.#pending.length) {
      const grown = new Uint8Array(Math.max(need, this.#pending.length * 2, 4096));
      grown.set(this.#pending.subarray(0, this.#length));
      this.#pending = grown;
    }
    this.#pending.set(bytes, this.#length);
    this.#length = need;
  }

  #one(buf: Uint8Array, at: number, end: number, sink: FrameSink): number {
    if (end - at < 2) return 0;
    const fin = (buf[at] & 0x80) !== 0;
    const opcode = buf[at] & 0x0f;
    if (buf[at + 1] & 0x80) throw new WebSocketProtocolError("the server sent a masked frame");
    // No extension is ever agreed, so a reserved bit set means bytes rtbench cannot read as the server meant them.
    if (buf[at] & 0x70) {
      throw new WebSocketProtocolError(`a frame with reserved bits 0x${(buf[at] & 0x70).toString(16)}`);
    }
    let length = buf[at + 1] & 0x7f;
    let head = 2;
    if (length === 126) {
      if (end - at < 4) return 0;
      length = (buf[at + 2] << 8) | buf[at + 3];
      head = 4;
    } else if (length === 127) {
      if (end - at < 10) return 0;
      length = 0;
      for (let i = 2; i < 10; i++) length = length * 256 + buf[at + i];
      head = 10;
    }
    if (opcode >= 0x8 && (!fin || length > 125)) {
      throw new WebSocketProtocolError(`a control frame (opcode ${opcode}) fragmented or over 125 bytes`);
    }
    if (end - at < head + length) return 0;
    const payload = buf.subarray(at + head, at + head + length);
    if (opcode === 0x9) sink.ping(payload);
    else if (opcode === 0x8) sink.closeFrame();
    else if (opcode === 0xa) { /* pong: nothing to do */ }
    else if (opcode === 0x0 || opcode === 0x1 || opcode === 0x2) {
      // A continuation needs a message begun; a new message may not begin inside one (RFC 6455, 5.4).
      if ((opcode === 0x0) !== this.#fragmented) {
        throw new WebSocketProtocolError(
          opcode === 0x0 ? "a continuation frame with no message begun" : "a new message inside a fragmented one",
        );
      }
      if (opcode !== 0x0) this.#partText = opcode === 0x1;
      this.#fragmented = !fin;
      if (fin && this.#parts.length === 0) sink.message(payload, this.#partText);
      else {
        // A fragmented message: its parts are joined (copied, since their bytes may be reused).
        this.#parts.push(payload.slice());
        if (fin) {
          const whole = new Uint8Array(this.#parts.reduce((a, p) => a + p.length, 0));
          let o = 0;
          for (const p of this.#parts) {
            whole.set(p, o);
            o += p.length;
          }
          this.#parts = [];
          sink.message(whole, this.#partText);
        }
      }
    } else throw new WebSocketProtocolError(`unknown opcode ${opcode}`);
    return head + length;
  }
}

/** A close frame from the client (masked, code 1000), to end a socket politely. */
export function closeFrame(mask: Uint8Array): Uint8Array {
  const payload = [0x03, 0xe8];
  return Uint8Array.from([0x88, 0x80 | 2, ...mask, payload[0] ^ mask[0], payload[1] ^ mask[1]]);
}

/** A pong answering `data` (masked). */
export function pongFrame(data: Uint8Array, mask: Uint8Array): Uint8Array {
  const frame = new Uint8Array(6 + data.length);
  frame[0] = 0x8a;
  frame[1] = 0x80 | data.length;
  frame.set(mask, 2);
  for (let i = 0; i < data.length; i++) frame[6 + i] = data[i] ^ mask[i & 3];
  return frame;
}
