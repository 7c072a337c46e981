export * from './api/errors.ts';
export * from './api/pagination.ts';
export * from './constants.ts';
export * from './entities/log.ts';
export * from './entities/role.ts';
export * from './entities/user.ts';
export * from './events.ts';
export * from './ids.ts';
