export * from './common.js';
export * from './auth.js';
export * from './users.js';
export * from './system.js';
export * from './rules.js';
export * from './policies.js';
export * from './devices.js';
export * from './firewall.js';
