export declare function scratchDbPrefix(): string;
export declare function scratchDbName(purpose?: string): string;
