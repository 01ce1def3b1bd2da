// The account export's ZIP, written entry after entry into a file stream (fflate's streaming
// ZIP writer). A CSV entry takes deflate data made elsewhere (the CPU pool's export slices:
// raw deflate flushed to a byte boundary, never ended) and ends it with an empty final block;
// an image is stored as it is. Sizes and CRC-32s go in each entry's data descriptor, so no
// entry is ever held whole. Waits while the file stream has not taken what was written.
import type { WriteStream } from "node:fs";
import { once } from "node:events";
import zlib from "node:zlib";
import { Zip, type ZipInputFile } from "fflate";

/** The final, empty block of a fixed-Huffman deflate stream: ends slices flushed with Z_SYNC_FLUSH. */
const END_OF_DEFLATE = new Uint8Array([0x03, 0x00]);

export interface ZipEntry {
  /** Adds raw deflate data (flushed, not ended) for `size` bytes whose CRC-32 so far is `crc`. */
  deflated(data: Uint8Array, crc: number, size: number): Promise<void>;
  /** Ends the entry. */
  end(): Promise<void>;
}

export class ZipStream {
  private zip: Zip;
  private failure: Error | null = null;
  private readonly closed: Promise<void>;

  constructor(private out: WriteStream) {
    this.closed = once(out, "close").then(() => undefined);
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        this.failure = error;
        out.destroy(error);
        return;
      }
      out.write(chunk);
      if (final) out.end();
    });
  }

  private async drained(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.out.writableNeedDrain) await once(this.out, "drain");
  }

  /** Starts an entry of deflate data (a CSV file). The previous entry must have ended. */
  entry(name: string, mtime: Date): ZipEntry {
    const file: ZipInputFile = { filename: name, size: 0, crc: 0, compression: 8, mtime };
    this.zip.add(file);
    const push = (data: Uint8Array, final: boolean) => file.ondata?.(null, data as Uint8Array<ArrayBuffer>, final);
    return {
      deflated: async (data, crc, size) => {
        file.crc = crc;
        file.size += size;
        if (data.length) push(data, false);
        await this.drained();
      },
      end: async () => {
        push(END_OF_DEFLATE, true);
        await this.drained();
      },
    };
  }

  /** An entry stored without compression (images are compressed already). */
  async stored(name: string, mtime: Date, data: Uint8Array): Promise<void> {
    const file: ZipInputFile = { filename: name, size: data.length, crc: zlib.crc32(data), compression: 0, mtime };
    this.zip.add(file);
    file.ondata?.(null, data as Uint8Array<ArrayBuffer>, true);
    await this.drained();
  }

  /** Writes the central directory and waits until the file is closed. */
  async finish(): Promise<void> {
    this.zip.end();
    await this.closed;
    if (this.failure) throw this.failure;
  }
}
