// class-transformer ships no exports map and no types beside its CommonJS storage module.
declare module 'class-transformer/cjs/storage.js' {
  /** The parts of class-transformer's metadata storage toolshield reads. */
  export interface ClassTransformerStorage {
    findTypeMetadata(
      target: object,
      propertyName: string,
    ):
      | {
          readonly reflectedType?: unknown;
          readonly typeFunction?: (options: object) => unknown;
          readonly options?: { readonly discriminator?: unknown };
        }
      | undefined;
    findTransformMetadatas(target: object, propertyName: string, type: number): readonly unknown[];
    findExposeMetadata(target: object, propertyName: string): unknown;
    findExcludeMetadata(target: object, propertyName: string): unknown;
    getStrategy(target: object): string;
    getExposedMetadatas(target: object): readonly unknown[];
    getExcludedMetadatas(target: object): readonly unknown[];
  }
  export const defaultMetadataStorage: ClassTransformerStorage;
}
