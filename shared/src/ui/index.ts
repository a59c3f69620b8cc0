export * from './overlays';
