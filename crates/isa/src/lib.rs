//! GFX9 instruction set: one table of encodings driving decoder and disassembler.
