// A minimal PNG reader for tests: enough to count the pixels of a colour in a
// browser screenshot (8-bit RGB or RGBA, non-interlaced, as Chromium writes).

/** Decoded pixels, 4 bytes (RGBA) per pixel, row by row. */
export interface Image {
  width: number;
  height: number;
  rgba: Uint8Array;
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes a PNG file's bytes. */
export async function decodePng(bytes: Uint8Array): Promise<Image> {
  const signature = [137, 80, 78, 71, 13, 10, 26, 10];
  if (!signature.every((b, i) => bytes[i] === b)) throw new TypeError("Not a PNG file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let width = 0, height = 0, colorType = 0;
  const idat: Uint8Array[] = [];
  while (offset < bytes.length) {
    const length = view.getUint32(offset);
    const type = new TextDecoder().decode(bytes.subarray(offset + 4, offset + 8));
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      const bitDepth = data[8];
      colorType = data[9];
      if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6) || data[12] !== 0) {
        throw new TypeError(`Unsupported PNG: bit depth ${bitDepth}, colour type ${colorType}, interlace ${data[12]}`);
      }
    } else if (type === "IDAT") {
      idat.push(data);
    } else if (type === "IEND") {
      break;
    }
    offset += 12 + length;
  }
  const compressed = new Uint8Array(idat.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of idat) {
    compressed.set(c, at);
    at += c.length;
  }
  const raw = await inflate(compressed);
  const bpp = colorType === 6 ? 4 : 3;
  const stride = width * bpp;
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      const x = line[i];
      out[i] = filter === 0
        ? x
        : filter === 1
        ? x + a
        : filter === 2
        ? x + b
        : filter === 3
        ? x + ((a + b) >> 1)
        : x + paeth(a, b, c);
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    rgba[p * 4] = pixels[p * bpp];
    rgba[p * 4 + 1] = pixels[p * bpp + 1];
    rgba[p * 4 + 2] = pixels[p * bpp + 2];
    rgba[p * 4 + 3] = bpp === 4 ? pixels[p * bpp + 3] : 255;
  }
  return { width, height, rgba };
}

/** Pixels of exactly the colour `#rrggbb`. */
export function countColor(image: Image, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let p = 0; p < image.rgba.length; p += 4) {
    if (image.rgba[p] === r && image.rgba[p + 1] === g && image.rgba[p + 2] === b) n++;
  }
  return n;
}
