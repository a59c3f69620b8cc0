export * from './create-http-client';
export * from './xsrf';
