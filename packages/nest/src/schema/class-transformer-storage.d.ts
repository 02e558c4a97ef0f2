// class-transformer ships no exports map and no types beside its CommonJS storage module.
declare module 'class-transformer/cjs/storage.js' {
  export const defaultMetadataStorage: unknown;
}
