// Webpack extracts imported stylesheets; TypeScript only needs to know the import is legal.
declare module '*.css';
