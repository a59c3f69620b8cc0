export * from './page';
export * from './button';
export * from './back-button';
export * from './text-field';
export * from './checkbox-field';
export * from './field-error';
export * from './status-view';
