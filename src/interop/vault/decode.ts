// Vault files must be UTF-8: a fatal decoder refuses anything else instead of silently
// turning it into U+FFFD, so the caller can report the file rather than import garbage.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text of a UTF-8 file (byte-order mark dropped), or null when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}
