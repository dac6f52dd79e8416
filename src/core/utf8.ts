/**
 * The core's UTF-8 encoder and decoders, each made on first use: importing
 * the core touches no global, so a test environment that lacks one (Jest's
 * plain jsdom has no `TextEncoder`) fails where it is used, with the error
 * its own setup guide describes, not at import.
 */
let encoder: TextEncoder | undefined
let decoder: TextDecoder | undefined
let strictDecoder: TextDecoder | undefined

export const utf8 = {
  /** Encodes text as UTF-8. */
  get encoder(): TextEncoder {
    encoder ??= new TextEncoder()
    return encoder
  },
  /** Decodes UTF-8, replacing what is not. */
  get decoder(): TextDecoder {
    decoder ??= new TextDecoder()
    return decoder
  },
  /** Decodes UTF-8, throwing on what is not. */
  get strictDecoder(): TextDecoder {
    strictDecoder ??= new TextDecoder('utf-8', { fatal: true })
    return strictDecoder
  },
}
