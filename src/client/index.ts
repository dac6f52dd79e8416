export * from './plant-store-client.ts'
