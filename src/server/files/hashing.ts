// Hashing while streaming, written once: every path that writes, rewrites, copies or reads back
// an attachment passes its plaintext through a Meter and takes the SHA-256 and size from it.
import crypto from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';

export class FileTooLargeError extends Error {}

export interface MeterOptions {
  /** Past this many bytes the stream fails with a FileTooLargeError. */
  maxBytes?: number;
  /** Sees the first 16 bytes (or the whole file when shorter) before they are passed on. */
  inspect?: (head: Buffer) => void;
}

const HEAD_SIZE = 16;

/** Plaintext through, unchanged; its SHA-256 and size once it has ended. */
export class Meter extends Transform {
  size = 0;
  private readonly hash = crypto.createHash('sha256');
  private head = Buffer.alloc(0);
  private inspected: boolean;

  constructor(private readonly options: MeterOptions = {}) {
    super();
    this.inspected = !options.inspect;
  }

  /** The plaintext's SHA-256, lowercase hex (once the stream has ended). */
  get sha256(): string {
    return this.hash.copy().digest('hex');
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.size += chunk.length;
    if (this.options.maxBytes !== undefined && this.size > this.options.maxBytes)
      return done(new FileTooLargeError());
    if (!this.inspected) {
      this.head = Buffer.concat([this.head, chunk]).subarray(0, HEAD_SIZE);
      if (this.head.length >= HEAD_SIZE || chunk.length === 0) {
        const failed = this.inspectHead();
        if (failed) return done(failed);
      }
    }
    this.hash.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback) {
    done(this.inspected ? null : this.inspectHead());
  }

  private inspectHead(): Error | null {
    this.inspected = true;
    try {
      this.options.inspect?.(this.head);
      return null;
    } catch (err) {
      return err as Error;
    }
  }
}

/** The SHA-256 (hex) of everything `source` gives; rejects with the stream's error. */
export async function sha256Of(source: Readable): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of source) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
