// Generated from openapi.json by `npm run web:types` (openapi-typescript). Do not edit.

export interface paths {
    "/api/v1/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Describe the calling API key (Herald extension) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "teamId": 2,
                         *       "keyId": "key_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "kind": "full",
                         *       "domainId": 1,
                         *       "apiRateLimit": 10
                         *     }
                         */
                        "application/json": {
                            teamId: number;
                            keyId: string;
                            /** @enum {string} */
                            kind: "full" | "readonly" | "sending" | "sandbox" | "live_ai";
                            domainId: number | null;
                            /** @description requests per second the team's keys may make */
                            apiRateLimit: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the team's API keys, newest first (Herald extension)
         * @description Each key with its kind, name, domain, maker, creation and last use, and a hint of its last four characters; never the key itself.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "key_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "kind": "full",
                         *           "name": "Acme",
                         *           "domainId": 1,
                         *           "createdBy": 1,
                         *           "hint": "example",
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "lastUsedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["ApiKey"][];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an API key; the key is shown only in this answer (Herald extension)
         * @description The calling key's maker is recorded as the new key's maker (createdBy). The team's owner and admins get an email, and the audit log an entry. Not idempotent by design: Herald never stores a key, so it cannot replay one. domainId must be a domain of the team (404 otherwise).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "kind": "full"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description full (full access), readonly, sending (sending access), sandbox or live_ai: the contract key kinds
                         * @enum {string}
                         */
                        kind: "full" | "readonly" | "sending" | "sandbox" | "live_ai";
                        /** @description a label for people, 1 to 200 characters */
                        name?: string;
                        /** @description limits the key to one of the team's domains */
                        domainId?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "key_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "kind": "full",
                         *       "name": "Acme",
                         *       "domainId": 1,
                         *       "createdBy": 1,
                         *       "hint": "example",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "lastUsedAt": "2026-01-15T09:30:00.000Z",
                         *       "key": "hk_4f9c2a7e1b8d3f6a0c5e9b2d7a1f4c8e"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /**
                             * @description full (full access), readonly, sending (sending access), sandbox or live_ai: the contract key kinds
                             * @enum {string}
                             */
                            kind: "full" | "readonly" | "sending" | "sandbox" | "live_ai";
                            name: string | null;
                            /** @description the domain the key is limited to; null: every domain */
                            domainId: number | null;
                            /** @description the member who made the key; null when made by the operator or the first start, or the member left */
                            createdBy: number | null;
                            /** @description the last four characters of the key, as hk_…abcd; never the key */
                            hint: string;
                            createdAt: string;
                            /** @description when the key last called the API, to within two minutes; null: not used yet */
                            lastUsedAt: string | null;
                            /** @description the API key itself; shown only in this answer, Herald keeps only a keyed hash */
                            key: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key; it stops working at once (Herald extension)
         * @description Any key of the team but the calling one: a key cannot revoke itself (400), so a script cannot lock itself out half way through a rotation; revoke it with another key. The team's owner and admins get an email, and the audit log an entry.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "key_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/suppressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the team's suppressed addresses, newest first (Herald extension)
         * @description Addresses the team does not send to: hard bounces, complaints and those it added. Cursor-paged: pass nextCursor back as cursor; limit 1 to 100 (default 50).
         */
        get: {
            parameters: {
                query?: {
                    /** @description only this address (case does not matter) */
                    email?: string;
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "email": "ada@example.com",
                         *           "reason": "example",
                         *           "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "createdAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["Suppression"][];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Add an address to the team's suppression list (Herald extension)
         * @description Sends to it are SUPPRESSED from the next send on. 201 when added; 200 with the row as it stands when the address was already listed (a COMPLAINT replaces an earlier reason; nothing else does).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "email": "ada@example.com"
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: email
                         * @description a bare address, at most 320 characters; kept lower-cased
                         */
                        email: string;
                        /**
                         * @description MANUAL (the default), or HARD_BOUNCE or COMPLAINT to carry over a list kept elsewhere
                         * @default MANUAL
                         * @enum {string}
                         */
                        reason?: "HARD_BOUNCE" | "COMPLAINT" | "MANUAL";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "email": "ada@example.com",
                         *       "reason": "example",
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Suppression"];
                    };
                };
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "email": "ada@example.com",
                         *       "reason": "example",
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Suppression"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/suppressions/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove an address from the team's suppression list (Herald extension)
         * @description Sending to it is allowed again from the next send on. 404 when the address is not listed.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    email: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "email": "ada@example.com",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            email: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the domains the key can use
         * @description A key limited to one domain sees that domain only.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": 1,
                         *         "name": "example.com",
                         *         "teamId": 2,
                         *         "status": "NOT_STARTED",
                         *         "region": "local",
                         *         "clickTracking": true,
                         *         "openTracking": true,
                         *         "publicKey": "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAq…",
                         *         "dkimStatus": null,
                         *         "spfDetails": null,
                         *         "createdAt": "2026-01-15T09:30:00.000Z",
                         *         "updatedAt": "2026-01-15T09:30:00.000Z",
                         *         "dmarcAdded": true,
                         *         "isVerifying": true,
                         *         "errorMessage": null,
                         *         "subdomain": null,
                         *         "verificationError": null,
                         *         "lastCheckedTime": "2026-01-15T09:30:00.000Z",
                         *         "dnsRecords": [
                         *           {
                         *             "type": "MX",
                         *             "name": "example.com",
                         *             "value": "herald.example.com",
                         *             "ttl": "Auto",
                         *             "priority": null,
                         *             "status": "NOT_STARTED",
                         *             "recommended": true,
                         *             "inbound": true
                         *           }
                         *         ]
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: number;
                            name: string;
                            teamId: number;
                            /** @enum {string} */
                            status: "NOT_STARTED" | "PENDING" | "SUCCESS" | "FAILED" | "TEMPORARY_FAILURE";
                            region: string;
                            clickTracking: boolean;
                            openTracking: boolean;
                            /** @description base64 DER public key of the DKIM record (its p= tag) */
                            publicKey: string;
                            /** @description status of the DKIM record at the latest check */
                            dkimStatus: string | null;
                            /** @description status of the return-path records (SPF and MX) at the latest check */
                            spfDetails: string | null;
                            createdAt: string;
                            updatedAt: string;
                            dmarcAdded: boolean;
                            isVerifying: boolean;
                            /** @description DNS lookups that failed temporarily at the latest check */
                            errorMessage: string | null;
                            /** @description the return-path (bounce) domain whose SPF and MX records point at this service */
                            subdomain: string | null;
                            /** @description which records were missing or wrong at the latest check, and what was found */
                            verificationError: string | null;
                            lastCheckedTime: string | null;
                            dnsRecords: {
                                /** @enum {string} */
                                type: "MX" | "TXT";
                                /** @description fully qualified name, without a trailing dot */
                                name: string;
                                value: string;
                                ttl: string;
                                priority: string | null;
                                /** @enum {string} */
                                status: "NOT_STARTED" | "PENDING" | "SUCCESS" | "FAILED" | "TEMPORARY_FAILURE";
                                /** @description true: not required for verification (DMARC) */
                                recommended: boolean;
                                /** @description present and true on the MX needed to receive mail at the team's inboxes on this domain (Herald extension; not part of verification, status NOT_STARTED) */
                                inbound?: boolean;
                            }[];
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a sending domain; the answer carries the DKIM, SPF, MX and DMARC records to publish
         * @description Makes the domain's own 2048-bit DKIM key and starts a first DNS check (status PENDING).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "example.com",
                     *       "region": "local"
                     *     }
                     */
                    "application/json": {
                        /** @description the domain to send from, e.g. example.com; stored lower-cased */
                        name: string;
                        /** @description recorded with the domain (Herald delivers mail itself; no provider region applies) */
                        region: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "name": "example.com",
                         *       "teamId": 2,
                         *       "status": "NOT_STARTED",
                         *       "region": "local",
                         *       "clickTracking": true,
                         *       "openTracking": true,
                         *       "publicKey": "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAq…",
                         *       "dkimStatus": null,
                         *       "spfDetails": null,
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "dmarcAdded": true,
                         *       "isVerifying": true,
                         *       "errorMessage": null,
                         *       "subdomain": null,
                         *       "verificationError": null,
                         *       "lastCheckedTime": "2026-01-15T09:30:00.000Z",
                         *       "dnsRecords": [
                         *         {
                         *           "type": "MX",
                         *           "name": "example.com",
                         *           "value": "herald.example.com",
                         *           "ttl": "Auto",
                         *           "priority": null,
                         *           "status": "NOT_STARTED",
                         *           "recommended": true,
                         *           "inbound": true
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            id: number;
                            name: string;
                            teamId: number;
                            /** @enum {string} */
                            status: "NOT_STARTED" | "PENDING" | "SUCCESS" | "FAILED" | "TEMPORARY_FAILURE";
                            region: string;
                            clickTracking: boolean;
                            openTracking: boolean;
                            /** @description base64 DER public key of the DKIM record (its p= tag) */
                            publicKey: string;
                            /** @description status of the DKIM record at the latest check */
                            dkimStatus: string | null;
                            /** @description status of the return-path records (SPF and MX) at the latest check */
                            spfDetails: string | null;
                            createdAt: string;
                            updatedAt: string;
                            dmarcAdded: boolean;
                            isVerifying: boolean;
                            /** @description DNS lookups that failed temporarily at the latest check */
                            errorMessage: string | null;
                            /** @description the return-path (bounce) domain whose SPF and MX records point at this service */
                            subdomain: string | null;
                            /** @description which records were missing or wrong at the latest check, and what was found */
                            verificationError: string | null;
                            lastCheckedTime: string | null;
                            dnsRecords: {
                                /** @enum {string} */
                                type: "MX" | "TXT";
                                /** @description fully qualified name, without a trailing dot */
                                name: string;
                                value: string;
                                ttl: string;
                                priority: string | null;
                                /** @enum {string} */
                                status: "NOT_STARTED" | "PENDING" | "SUCCESS" | "FAILED" | "TEMPORARY_FAILURE";
                                /** @description true: not required for verification (DMARC) */
                                recommended: boolean;
                                /** @description present and true on the MX needed to receive mail at the team's inboxes on this domain (Herald extension; not part of verification, status NOT_STARTED) */
                                inbound?: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/domains/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a domain with its DNS records and verification status */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "name": "example.com",
                         *       "teamId": 2,
                         *       "status": "NOT_STARTED",
                         *       "region": "local",
                         *       "clickTracking": true,
                         *       "openTracking": true,
                         *       "publicKey": "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAq…",
                         *       "dkimStatus": null,
                         *       "spfDetails": null,
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "dmarcAdded": true,
                         *       "isVerifying": true,
                         *       "errorMessage": null,
                         *       "subdomain": null,
                         *       "verificationError": null,
                         *       "lastCheckedTime": "2026-01-15T09:30:00.000Z",
                         *       "dnsRecords": [
                         *         {
                         *           "type": "MX",
                         *           "name": "example.com",
                         *           "value": "herald.example.com",
                         *           "ttl": "Auto",
                         *           "priority": null,
                         *           "status": "NOT_STARTED",
                         *           "recommended": true,
                         *           "inbound": true
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            id: number;
                            name: string;
                            teamId: number;
                            /** @enum {string} */
                            status: "NOT_STARTED" | "PENDING" | "SUCCESS" | "FAILED" | "TEMPORARY_FAILURE";
                            region: string;
                            clickTracking: boolean;
                            openTracking: boolean;
                            /** @description base64 DER public key of the DKIM record (its p= tag) */
                            publicKey: string;
                            /** @description status of the DKIM record at the latest check */
                            dkimStatus: string | null;
                            /** @description status of the return-path records (SPF and MX) at the latest check */
                            spfDetails: string | null;
                            createdAt: string;
                            updatedAt: string;
                            dmarcAdded: boolean;
                            isVerifying: boolean;
                            /** @description DNS lookups that failed temporarily at the latest check */
                            errorMessage: string | null;
                            /** @description the return-path (bounce) domain whose SPF and MX records point at this service */
                            subdomain: string | null;
                            /** @description which records were missing or wrong at the latest check, and what was found */
                            verificationError: string | null;
                            lastCheckedTime: string | null;
                            dnsRecords: {
                                /** @enum {string} */
                                type: "MX" | "TXT";
                                /** @description fully qualified name, without a trailing dot */
                                name: string;
                                value: string;
                                ttl: string;
                                priority: string | null;
                                /** @enum {string} */
                                status: "NOT_STARTED" | "PENDING" | "SUCCESS" | "FAILED" | "TEMPORARY_FAILURE";
                                /** @description true: not required for verification (DMARC) */
                                recommended: boolean;
                                /** @description present and true on the MX needed to receive mail at the team's inboxes on this domain (Herald extension; not part of verification, status NOT_STARTED) */
                                inbound?: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a domain; mail can no longer be sent from it */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "success": true,
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            id: number;
                            success: boolean;
                            message: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "name: Invalid input: expected string, received number"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "API key is not valid"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Turn open and click tracking on or off (Herald extension)
         * @description Herald extension, not in the contract. Flags left out of the body keep their value. Applies to mail delivered from now on: with openTracking the HTML gets a 1×1 pixel, with clickTracking its http(s) links (not mailto:, tel:, unsubscribe links or links marked `data-herald-no-track`) go through a signed redirect; both record events (OPENED, CLICKED) on the email.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            /** @description Herald extension: the tracking flags to change; flags left out keep their value */
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "openTracking": true,
                     *       "clickTracking": true
                     *     }
                     */
                    "application/json": {
                        /** @description add a 1×1 pixel to delivered HTML and record OPENED when it is fetched */
                        openTracking?: boolean;
                        /** @description rewrite http(s) links of delivered HTML to signed redirects that record CLICKED */
                        clickTracking?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "name": "example.com",
                         *       "teamId": 2,
                         *       "status": "NOT_STARTED",
                         *       "region": "local",
                         *       "clickTracking": true,
                         *       "openTracking": true,
                         *       "publicKey": "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAq…",
                         *       "dkimStatus": null,
                         *       "spfDetails": null,
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "dmarcAdded": true,
                         *       "isVerifying": true,
                         *       "errorMessage": null,
                         *       "subdomain": null,
                         *       "verificationError": null,
                         *       "lastCheckedTime": "2026-01-15T09:30:00.000Z",
                         *       "dnsRecords": [
                         *         {
                         *           "type": "MX",
                         *           "name": "example.com",
                         *           "value": "herald.example.com",
                         *           "ttl": "Auto",
                         *           "priority": null,
                         *           "status": "NOT_STARTED",
                         *           "recommended": true,
                         *           "inbound": true
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            id: number;
                            name: string;
                            teamId: number;
                            /** @enum {string} */
                            status: "NOT_STARTED" | "PENDING" | "SUCCESS" | "FAILED" | "TEMPORARY_FAILURE";
                            region: string;
                            clickTracking: boolean;
                            openTracking: boolean;
                            /** @description base64 DER public key of the DKIM record (its p= tag) */
                            publicKey: string;
                            /** @description status of the DKIM record at the latest check */
                            dkimStatus: string | null;
                            /** @description status of the return-path records (SPF and MX) at the latest check */
                            spfDetails: string | null;
                            createdAt: string;
                            updatedAt: string;
                            dmarcAdded: boolean;
                            isVerifying: boolean;
                            /** @description DNS lookups that failed temporarily at the latest check */
                            errorMessage: string | null;
                            /** @description the return-path (bounce) domain whose SPF and MX records point at this service */
                            subdomain: string | null;
                            /** @description which records were missing or wrong at the latest check, and what was found */
                            verificationError: string | null;
                            lastCheckedTime: string | null;
                            dnsRecords: {
                                /** @enum {string} */
                                type: "MX" | "TXT";
                                /** @description fully qualified name, without a trailing dot */
                                name: string;
                                value: string;
                                ttl: string;
                                priority: string | null;
                                /** @enum {string} */
                                status: "NOT_STARTED" | "PENDING" | "SUCCESS" | "FAILED" | "TEMPORARY_FAILURE";
                                /** @description true: not required for verification (DMARC) */
                                recommended: boolean;
                                /** @description present and true on the MX needed to receive mail at the team's inboxes on this domain (Herald extension; not part of verification, status NOT_STARTED) */
                                inbound?: boolean;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/domains/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Start a fresh DNS check; answers at once, the result is read from the domain */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "name: Invalid input: expected string, received number"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "API key is not valid"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description flat error body of the Domains endpoints */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List templates, most recently changed first
         * @description Paged by page (1 to 10000, default 1) and limit (1 to 100, default 50).
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "name": "Welcome email",
                         *         "subject": "Welcome to Acme",
                         *         "type": "TRANSACTIONAL",
                         *         "previewText": "Your account is ready",
                         *         "content": null,
                         *         "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *         "createdAt": "2026-01-15T09:30:00.000Z",
                         *         "updatedAt": "2026-01-15T09:30:00.000Z"
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            subject: string;
                            /** @enum {string} */
                            type: "TRANSACTIONAL" | "MARKETING";
                            previewText: string | null;
                            /** @description The editor document as JSON text; null for a template created from HTML */
                            content: string | null;
                            /** @description The rendered, sanitised body that is sent; null for a transactional template without a body */
                            html: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a template
         * @description Give content (editor document) or html, not both. A MARKETING template always links to `{{unsubscribeUrl}}`: created without a body it gets the default body (the unsubscribe footer); a body without that link gets the footer appended.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Welcome email",
                     *       "subject": "Welcome to Acme, {{firstName}}",
                     *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>"
                     *     }
                     */
                    "application/json": {
                        name: string;
                        /** @description May contain `{{variables}}`; at most 998 characters, one line */
                        subject: string;
                        /**
                         * @default TRANSACTIONAL
                         * @enum {string}
                         */
                        type?: "TRANSACTIONAL" | "MARKETING";
                        previewText?: string | null;
                        /** @description The editor document as JSON text (see docs/templates.md): `{"version": 1, "blocks": [...]}`. Blocks: `heading` {level 1-3, text}, `paragraph` {content: runs; a run is a string or {text, bold?, italic?, href?}; size? normal|small}, `link` {text, href}, `button` {label, href, backgroundColor?, textColor? as #rgb/#rrggbb}, `image` {src (https), alt, width? 1-552, href?}, `divider` {color?}, `spacer` {height? 4-200}; heading, paragraph, link, button and image take align? left|center|right. Texts and links may use `{{variables}}`. A link is an http(s), mailto or tel URL, or begins with a `{{variable}}` whose value must be such a URL when sent (else the link becomes `#`). At most 1,000 blocks and 5,000 paragraph runs. Rendered to table-based HTML with inline styles into `html`. A bad document answers 400 naming its path, e.g. `content.blocks[2].href`. Give content or html, not both. */
                        content?: string;
                        /** @description An HTML body. Sanitised on the way in: script, style (its rules are inlined first), iframe, object, form and comments are removed, as are event handlers and URLs other than http(s), mailto and tel (images may also use cid:). Give content or html, not both. */
                        html?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Welcome email",
                         *       "subject": "Welcome to Acme",
                         *       "type": "TRANSACTIONAL",
                         *       "previewText": "Your account is ready",
                         *       "content": null,
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            subject: string;
                            /** @enum {string} */
                            type: "TRANSACTIONAL" | "MARKETING";
                            previewText: string | null;
                            /** @description The editor document as JSON text; null for a template created from HTML */
                            content: string | null;
                            /** @description The rendered, sanitised body that is sent; null for a transactional template without a body */
                            html: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/{templateId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a template */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    templateId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Welcome email",
                         *       "subject": "Welcome to Acme",
                         *       "type": "TRANSACTIONAL",
                         *       "previewText": "Your account is ready",
                         *       "content": null,
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            subject: string;
                            /** @enum {string} */
                            type: "TRANSACTIONAL" | "MARKETING";
                            previewText: string | null;
                            /** @description The editor document as JSON text; null for a template created from HTML */
                            content: string | null;
                            /** @description The rendered, sanitised body that is sent; null for a transactional template without a body */
                            html: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a template
         * @description Emails already sent from the template are not affected.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    templateId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "success": true,
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            success: boolean;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a template
         * @description Fields left out are unchanged; the stored body is rewritten only when content or html is sent. Making a template MARKETING without sending a body needs a stored body that already links to `{{unsubscribeUrl}}`.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    templateId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "subject": "Welcome aboard, {{firstName}}",
                     *       "content": "{\"version\":1,\"blocks\":[{\"type\":\"heading\",\"level\":1,\"text\":\"Welcome, {{firstName}}\"},{\"type\":\"paragraph\",\"content\":[\"Your account is ready.\"]}]}"
                     *     }
                     */
                    "application/json": {
                        name?: string;
                        /** @description May contain `{{variables}}`; at most 998 characters, one line */
                        subject?: string;
                        /** @enum {string} */
                        type?: "TRANSACTIONAL" | "MARKETING";
                        previewText?: string | null;
                        /** @description The editor document as JSON text (see docs/templates.md): `{"version": 1, "blocks": [...]}`. Blocks: `heading` {level 1-3, text}, `paragraph` {content: runs; a run is a string or {text, bold?, italic?, href?}; size? normal|small}, `link` {text, href}, `button` {label, href, backgroundColor?, textColor? as #rgb/#rrggbb}, `image` {src (https), alt, width? 1-552, href?}, `divider` {color?}, `spacer` {height? 4-200}; heading, paragraph, link, button and image take align? left|center|right. Texts and links may use `{{variables}}`. A link is an http(s), mailto or tel URL, or begins with a `{{variable}}` whose value must be such a URL when sent (else the link becomes `#`). At most 1,000 blocks and 5,000 paragraph runs. Rendered to table-based HTML with inline styles into `html`. A bad document answers 400 naming its path, e.g. `content.blocks[2].href`. Give content or html, not both. */
                        content?: string;
                        /** @description An HTML body. Sanitised on the way in: script, style (its rules are inlined first), iframe, object, form and comments are removed, as are event handlers and URLs other than http(s), mailto and tel (images may also use cid:). Give content or html, not both. */
                        html?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Welcome email",
                         *       "subject": "Welcome to Acme",
                         *       "type": "TRANSACTIONAL",
                         *       "previewText": "Your account is ready",
                         *       "content": null,
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            subject: string;
                            /** @enum {string} */
                            type: "TRANSACTIONAL" | "MARKETING";
                            previewText: string | null;
                            /** @description The editor document as JSON text; null for a template created from HTML */
                            content: string | null;
                            /** @description The rendered, sanitised body that is sent; null for a transactional template without a body */
                            html: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/emails": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List emails, newest first
         * @description page from 1; limit 1 to 100 (default 50); startDate and endDate bound createdAt (inclusive); domainId may repeat. A key limited to a domain sees only that domain's emails.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    startDate?: string;
                    endDate?: string;
                    domainId?: number | number[];
                    /** @description only this campaign's emails */
                    campaignId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "to": "ada@example.com",
                         *           "replyTo": "support@example.com",
                         *           "cc": "grace@example.com",
                         *           "bcc": "audit@example.com",
                         *           "from": "Acme <hello@example.com>",
                         *           "subject": "Welcome to Acme",
                         *           "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *           "text": "Hello Ada, welcome aboard.",
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z",
                         *           "latestStatus": "SCHEDULED",
                         *           "scheduledAt": "2026-01-15T09:30:00.000Z",
                         *           "domainId": 1,
                         *           "campaignId": "cmp_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *         }
                         *       ],
                         *       "count": 1
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: string;
                                to: string | string[];
                                replyTo: (string | string[]) | null;
                                cc: (string | string[]) | null;
                                bcc: (string | string[]) | null;
                                from: string;
                                subject: string;
                                html: string | null;
                                text: string | null;
                                createdAt: string;
                                updatedAt: string;
                                latestStatus: ("SCHEDULED" | "QUEUED" | "SENT" | "DELIVERY_DELAYED" | "BOUNCED" | "REJECTED" | "RENDERING_FAILURE" | "DELIVERED" | "OPENED" | "CLICKED" | "COMPLAINED" | "FAILED" | "CANCELLED" | "SUPPRESSED") | null;
                                scheduledAt: string | null;
                                domainId: number | null;
                                campaignId: string | null;
                            }[];
                            count: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Send an email
         * @description Limits (contract): at most 50 distinct recipients across to, cc and bcc (422); subject 1 to 998 characters; html and text at most 2,000,000 characters; at most 10 attachments, filename 1 to 255 characters, 7 MB per file and 10 MB per email decoded (MB = 1,048,576 bytes); variables at most 200, each at most 10,000 characters. The from address must be on a verified domain of the team (400); a key limited to a domain sends only from it (403). Every recipient not on the suppression list counts against the plan's daily and monthly send limits (429). Without templateId, subject and html or text are required.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "from": "Acme <hello@example.com>",
                     *       "to": "ada@example.com",
                     *       "subject": "Welcome to Acme",
                     *       "html": "<p>Hello Ada, welcome aboard.</p>",
                     *       "text": "Hello Ada, welcome aboard."
                     *     }
                     */
                    "application/json": {
                        /** @description Optional when cc or bcc names somebody */
                        to?: string | string[];
                        /** @description `address` or `Name <address>`, on a verified domain of the team */
                        from: string;
                        subject?: string;
                        templateId?: string;
                        variables?: {
                            [key: string]: string;
                        };
                        replyTo?: string | string[];
                        cc?: string | string[];
                        bcc?: string | string[];
                        text?: string | null;
                        html?: string | null;
                        headers?: {
                            [key: string]: string;
                        };
                        attachments?: {
                            filename: string;
                            /** @description base64; at most 7 MB (7 × 1024 × 1024 bytes) decoded */
                            content: string;
                        }[];
                        /** Format: date-time */
                        scheduledAt?: string;
                        inReplyToId?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            emailId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNPROCESSABLE_ENTITY",
                         *         "message": "The request cannot be processed"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/emails/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send up to 100 emails
         * @description Limits (contract): at most 50 distinct recipients across to, cc and bcc (422); subject 1 to 998 characters; html and text at most 2,000,000 characters; at most 10 attachments, filename 1 to 255 characters, 7 MB per file and 10 MB per email decoded (MB = 1,048,576 bytes); variables at most 200, each at most 10,000 characters. The from address must be on a verified domain of the team (400); a key limited to a domain sends only from it (403). Every recipient not on the suppression list counts against the plan's daily and monthly send limits (429). Without templateId, subject and html or text are required. At most 100 emails and 40 MB of attachments decoded per batch. One bad message refuses the whole batch; nothing is stored.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example [
                     *       {
                     *         "from": "Acme <hello@example.com>",
                     *         "to": "ada@example.com",
                     *         "subject": "Welcome to Acme",
                     *         "html": "<p>Hello Ada, welcome aboard.</p>",
                     *         "text": "Hello Ada, welcome aboard."
                     *       },
                     *       {
                     *         "from": "Acme <hello@example.com>",
                     *         "to": "grace@example.com",
                     *         "subject": "Welcome to Acme",
                     *         "html": "<p>Hello Grace, welcome aboard.</p>"
                     *       }
                     *     ]
                     */
                    "application/json": {
                        /** @description Optional when cc or bcc names somebody */
                        to?: string | string[];
                        /** @description `address` or `Name <address>`, on a verified domain of the team */
                        from: string;
                        subject?: string;
                        templateId?: string;
                        variables?: {
                            [key: string]: string;
                        };
                        replyTo?: string | string[];
                        cc?: string | string[];
                        bcc?: string | string[];
                        text?: string | null;
                        html?: string | null;
                        headers?: {
                            [key: string]: string;
                        };
                        attachments?: {
                            filename: string;
                            /** @description base64; at most 7 MB (7 × 1024 × 1024 bytes) decoded */
                            content: string;
                        }[];
                        /** Format: date-time */
                        scheduledAt?: string;
                        inReplyToId?: string | null;
                    }[];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: {
                                emailId: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNPROCESSABLE_ENTITY",
                         *         "message": "The request cannot be processed"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/emails/{emailId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an email with its events */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    emailId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "teamId": 2,
                         *       "to": "ada@example.com",
                         *       "replyTo": "support@example.com",
                         *       "cc": "grace@example.com",
                         *       "bcc": "audit@example.com",
                         *       "from": "Acme <hello@example.com>",
                         *       "subject": "Welcome to Acme",
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "text": "Hello Ada, welcome aboard.",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "latestStatus": "SCHEDULED",
                         *       "attempts": 1,
                         *       "nextAttemptAt": "2026-01-15T09:30:00.000Z",
                         *       "campaignId": "cmp_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "emailEvents": [
                         *         {
                         *           "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "status": "SCHEDULED",
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "data": null
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            id: string;
                            teamId: number;
                            /** @description as sent; [] for a message sent only to cc or bcc */
                            to: string | string[];
                            replyTo?: string | string[];
                            cc?: string | string[];
                            bcc?: string | string[];
                            from: string;
                            subject: string;
                            html: string | null;
                            text: string | null;
                            createdAt: string;
                            updatedAt: string;
                            /**
                             * @description the newest event: DELIVERY_DELAYED while a deferred email waits for its next attempt
                             * @enum {string}
                             */
                            latestStatus: "SCHEDULED" | "QUEUED" | "SENT" | "DELIVERY_DELAYED" | "BOUNCED" | "REJECTED" | "RENDERING_FAILURE" | "DELIVERED" | "OPENED" | "CLICKED" | "COMPLAINED" | "FAILED" | "CANCELLED" | "SUPPRESSED";
                            /** @description delivery attempts made so far (a wait for a backed-off destination is none) */
                            attempts: number;
                            /** @description when the next delivery attempt is due, while a deferred email waits for it; else null */
                            nextAttemptAt: string | null;
                            /** @description the campaign that sent it, or null */
                            campaignId: string | null;
                            /** @description oldest first */
                            emailEvents: {
                                emailId: string;
                                /** @enum {string} */
                                status: "SCHEDULED" | "QUEUED" | "SENT" | "DELIVERY_DELAYED" | "BOUNCED" | "REJECTED" | "RENDERING_FAILURE" | "DELIVERED" | "OPENED" | "CLICKED" | "COMPLAINED" | "FAILED" | "CANCELLED" | "SUPPRESSED";
                                createdAt: string;
                                data: unknown | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the send time of an unsent email
         * @description Only while the email is SCHEDULED or QUEUED and not yet taken by delivery; otherwise 409 CONFLICT. A time in the past queues it now.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    emailId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "scheduledAt": "2026-01-15T09:30:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** Format: date-time */
                        scheduledAt: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            emailId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/emails/{emailId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a scheduled, unsent email
         * @description Only while the email is SCHEDULED and not yet taken by delivery; otherwise 409 CONFLICT.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    emailId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            emailId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contactBooks/{contactBookId}/segments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a contact book's segments, oldest first, each with its live count and problems */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "name": "Active readers",
                         *           "description": "Example",
                         *           "definition": {
                         *             "version": 1,
                         *             "match": "all",
                         *             "conditions": [
                         *               {
                         *                 "type": "email",
                         *                 "op": "equals",
                         *                 "value": "pro"
                         *               }
                         *             ]
                         *           },
                         *           "count": 1,
                         *           "problems": [
                         *             "example"
                         *           ],
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: string;
                                contactBookId: string;
                                name: string;
                                description: string | null;
                                definition: {
                                    /** @enum {number} */
                                    version: 1;
                                    /** @enum {string} */
                                    match: "all" | "any";
                                    conditions: ({
                                        /** @enum {string} */
                                        type: "email";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "ends_with";
                                        value: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "first_name";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                        /** @description Not used with is_set and is_empty */
                                        value?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "last_name";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                        /** @description Not used with is_set and is_empty */
                                        value?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "subscribed";
                                        /** @enum {string} */
                                        op: "is";
                                        /** @description true: subscribed and, in a double opt-in book, confirmed */
                                        value: boolean;
                                    } | {
                                        /** @enum {string} */
                                        type: "added";
                                        /** @enum {string} */
                                        op: "before" | "after" | "in_last_days";
                                        /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                        value: string | number;
                                    } | {
                                        /** @enum {string} */
                                        type: "property";
                                        /** @description A variable of the contact book (the book's `variables`) */
                                        key: string;
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                        /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                        value?: string | number;
                                    } | {
                                        /** @enum {string} */
                                        type: "email_activity";
                                        /** @enum {string} */
                                        event: "received" | "opened" | "clicked";
                                        /** @enum {string} */
                                        op: "in_last_days" | "ever" | "never";
                                        /** @description Required with in_last_days */
                                        days?: number;
                                        /** @description Only emails of this campaign */
                                        campaignId?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "email_problem";
                                        /** @enum {string} */
                                        event: "bounced" | "complained";
                                        /** @enum {string} */
                                        op: "ever" | "never";
                                    } | {
                                        /** @enum {string} */
                                        type: "journey";
                                        /** @enum {string} */
                                        op: "is_in" | "completed" | "exited" | "not_in";
                                        journeyId: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "group";
                                        /** @enum {string} */
                                        match: "all" | "any";
                                        /** @description Conditions of any type but group (groups nest one level only) */
                                        conditions: ({
                                            /** @enum {string} */
                                            type: "email";
                                            /** @enum {string} */
                                            op: "equals" | "not_equals" | "contains" | "ends_with";
                                            value: string;
                                        } | {
                                            /** @enum {string} */
                                            type: "first_name";
                                            /** @enum {string} */
                                            op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                            /** @description Not used with is_set and is_empty */
                                            value?: string;
                                        } | {
                                            /** @enum {string} */
                                            type: "last_name";
                                            /** @enum {string} */
                                            op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                            /** @description Not used with is_set and is_empty */
                                            value?: string;
                                        } | {
                                            /** @enum {string} */
                                            type: "subscribed";
                                            /** @enum {string} */
                                            op: "is";
                                            /** @description true: subscribed and, in a double opt-in book, confirmed */
                                            value: boolean;
                                        } | {
                                            /** @enum {string} */
                                            type: "added";
                                            /** @enum {string} */
                                            op: "before" | "after" | "in_last_days";
                                            /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                            value: string | number;
                                        } | {
                                            /** @enum {string} */
                                            type: "property";
                                            /** @description A variable of the contact book (the book's `variables`) */
                                            key: string;
                                            /** @enum {string} */
                                            op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                            /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                            value?: string | number;
                                        } | {
                                            /** @enum {string} */
                                            type: "email_activity";
                                            /** @enum {string} */
                                            event: "received" | "opened" | "clicked";
                                            /** @enum {string} */
                                            op: "in_last_days" | "ever" | "never";
                                            /** @description Required with in_last_days */
                                            days?: number;
                                            /** @description Only emails of this campaign */
                                            campaignId?: string;
                                        } | {
                                            /** @enum {string} */
                                            type: "email_problem";
                                            /** @enum {string} */
                                            event: "bounced" | "complained";
                                            /** @enum {string} */
                                            op: "ever" | "never";
                                        } | {
                                            /** @enum {string} */
                                            type: "journey";
                                            /** @enum {string} */
                                            op: "is_in" | "completed" | "exited" | "not_in";
                                            journeyId: string;
                                        })[];
                                    })[];
                                };
                                /** @description Contacts matching right now; 0 while the segment has problems */
                                count: number;
                                /** @description Why the segment matches nothing, e.g. a property removed from the book */
                                problems: string[];
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a segment
         * @description At most 100 segments per contact book. A property condition must name a variable of the book, a journey condition a journey of the team, an email_activity condition's campaignId a campaign of the team sent to this book (400 otherwise).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Active readers",
                     *       "definition": {
                     *         "version": 1,
                     *         "match": "all",
                     *         "conditions": [
                     *           {
                     *             "type": "email",
                     *             "op": "equals",
                     *             "value": "pro"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description Unique within the contact book */
                        name: string;
                        description?: string | null;
                        /** @description version 1; match `all` or `any`; conditions (at most 20 counting those inside groups). Condition `type`s: `email` (op equals, not_equals, contains, ends_with; value), `first_name` and `last_name` (op equals, not_equals, contains, is_set, is_empty; value), `subscribed` (op is; value true/false), `added` (op before, after with an ISO date value; in_last_days with a number of days), `property` (key: a variable of the book; op equals, not_equals, contains, is_set, is_empty, gt, gte, lt, lte; value), `email_activity` (event received, opened, clicked; op in_last_days with days, ever, never; optional campaignId), `email_problem` (event bounced, complained; op ever, never), `journey` (op is_in, completed, exited, not_in; journeyId), `group` (match; conditions of any other type: groups nest one level only). Text comparisons ignore case. */
                        definition: {
                            /** @enum {number} */
                            version: 1;
                            /** @enum {string} */
                            match: "all" | "any";
                            conditions: ({
                                /** @enum {string} */
                                type: "email";
                                /** @enum {string} */
                                op: "equals" | "not_equals" | "contains" | "ends_with";
                                value: string;
                            } | {
                                /** @enum {string} */
                                type: "first_name";
                                /** @enum {string} */
                                op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                /** @description Not used with is_set and is_empty */
                                value?: string;
                            } | {
                                /** @enum {string} */
                                type: "last_name";
                                /** @enum {string} */
                                op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                /** @description Not used with is_set and is_empty */
                                value?: string;
                            } | {
                                /** @enum {string} */
                                type: "subscribed";
                                /** @enum {string} */
                                op: "is";
                                /** @description true: subscribed and, in a double opt-in book, confirmed */
                                value: boolean;
                            } | {
                                /** @enum {string} */
                                type: "added";
                                /** @enum {string} */
                                op: "before" | "after" | "in_last_days";
                                /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                value: string | number;
                            } | {
                                /** @enum {string} */
                                type: "property";
                                /** @description A variable of the contact book (the book's `variables`) */
                                key: string;
                                /** @enum {string} */
                                op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                value?: string | number;
                            } | {
                                /** @enum {string} */
                                type: "email_activity";
                                /** @enum {string} */
                                event: "received" | "opened" | "clicked";
                                /** @enum {string} */
                                op: "in_last_days" | "ever" | "never";
                                /** @description Required with in_last_days */
                                days?: number;
                                /** @description Only emails of this campaign */
                                campaignId?: string;
                            } | {
                                /** @enum {string} */
                                type: "email_problem";
                                /** @enum {string} */
                                event: "bounced" | "complained";
                                /** @enum {string} */
                                op: "ever" | "never";
                            } | {
                                /** @enum {string} */
                                type: "journey";
                                /** @enum {string} */
                                op: "is_in" | "completed" | "exited" | "not_in";
                                journeyId: string;
                            } | {
                                /** @enum {string} */
                                type: "group";
                                /** @enum {string} */
                                match: "all" | "any";
                                /** @description Conditions of any type but group (groups nest one level only) */
                                conditions: ({
                                    /** @enum {string} */
                                    type: "email";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "ends_with";
                                    value: string;
                                } | {
                                    /** @enum {string} */
                                    type: "first_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "last_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "subscribed";
                                    /** @enum {string} */
                                    op: "is";
                                    /** @description true: subscribed and, in a double opt-in book, confirmed */
                                    value: boolean;
                                } | {
                                    /** @enum {string} */
                                    type: "added";
                                    /** @enum {string} */
                                    op: "before" | "after" | "in_last_days";
                                    /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                    value: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "property";
                                    /** @description A variable of the contact book (the book's `variables`) */
                                    key: string;
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                    /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                    value?: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "email_activity";
                                    /** @enum {string} */
                                    event: "received" | "opened" | "clicked";
                                    /** @enum {string} */
                                    op: "in_last_days" | "ever" | "never";
                                    /** @description Required with in_last_days */
                                    days?: number;
                                    /** @description Only emails of this campaign */
                                    campaignId?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "email_problem";
                                    /** @enum {string} */
                                    event: "bounced" | "complained";
                                    /** @enum {string} */
                                    op: "ever" | "never";
                                } | {
                                    /** @enum {string} */
                                    type: "journey";
                                    /** @enum {string} */
                                    op: "is_in" | "completed" | "exited" | "not_in";
                                    journeyId: string;
                                })[];
                            })[];
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Active readers",
                         *       "description": "Example",
                         *       "definition": {
                         *         "version": 1,
                         *         "match": "all",
                         *         "conditions": [
                         *           {
                         *             "type": "email",
                         *             "op": "equals",
                         *             "value": "pro"
                         *           }
                         *         ]
                         *       },
                         *       "count": 1,
                         *       "problems": [
                         *         "example"
                         *       ],
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            contactBookId: string;
                            name: string;
                            description: string | null;
                            definition: {
                                /** @enum {number} */
                                version: 1;
                                /** @enum {string} */
                                match: "all" | "any";
                                conditions: ({
                                    /** @enum {string} */
                                    type: "email";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "ends_with";
                                    value: string;
                                } | {
                                    /** @enum {string} */
                                    type: "first_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "last_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "subscribed";
                                    /** @enum {string} */
                                    op: "is";
                                    /** @description true: subscribed and, in a double opt-in book, confirmed */
                                    value: boolean;
                                } | {
                                    /** @enum {string} */
                                    type: "added";
                                    /** @enum {string} */
                                    op: "before" | "after" | "in_last_days";
                                    /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                    value: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "property";
                                    /** @description A variable of the contact book (the book's `variables`) */
                                    key: string;
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                    /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                    value?: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "email_activity";
                                    /** @enum {string} */
                                    event: "received" | "opened" | "clicked";
                                    /** @enum {string} */
                                    op: "in_last_days" | "ever" | "never";
                                    /** @description Required with in_last_days */
                                    days?: number;
                                    /** @description Only emails of this campaign */
                                    campaignId?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "email_problem";
                                    /** @enum {string} */
                                    event: "bounced" | "complained";
                                    /** @enum {string} */
                                    op: "ever" | "never";
                                } | {
                                    /** @enum {string} */
                                    type: "journey";
                                    /** @enum {string} */
                                    op: "is_in" | "completed" | "exited" | "not_in";
                                    journeyId: string;
                                } | {
                                    /** @enum {string} */
                                    type: "group";
                                    /** @enum {string} */
                                    match: "all" | "any";
                                    /** @description Conditions of any type but group (groups nest one level only) */
                                    conditions: ({
                                        /** @enum {string} */
                                        type: "email";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "ends_with";
                                        value: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "first_name";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                        /** @description Not used with is_set and is_empty */
                                        value?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "last_name";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                        /** @description Not used with is_set and is_empty */
                                        value?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "subscribed";
                                        /** @enum {string} */
                                        op: "is";
                                        /** @description true: subscribed and, in a double opt-in book, confirmed */
                                        value: boolean;
                                    } | {
                                        /** @enum {string} */
                                        type: "added";
                                        /** @enum {string} */
                                        op: "before" | "after" | "in_last_days";
                                        /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                        value: string | number;
                                    } | {
                                        /** @enum {string} */
                                        type: "property";
                                        /** @description A variable of the contact book (the book's `variables`) */
                                        key: string;
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                        /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                        value?: string | number;
                                    } | {
                                        /** @enum {string} */
                                        type: "email_activity";
                                        /** @enum {string} */
                                        event: "received" | "opened" | "clicked";
                                        /** @enum {string} */
                                        op: "in_last_days" | "ever" | "never";
                                        /** @description Required with in_last_days */
                                        days?: number;
                                        /** @description Only emails of this campaign */
                                        campaignId?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "email_problem";
                                        /** @enum {string} */
                                        event: "bounced" | "complained";
                                        /** @enum {string} */
                                        op: "ever" | "never";
                                    } | {
                                        /** @enum {string} */
                                        type: "journey";
                                        /** @enum {string} */
                                        op: "is_in" | "completed" | "exited" | "not_in";
                                        journeyId: string;
                                    })[];
                                })[];
                            };
                            /** @description Contacts matching right now; 0 while the segment has problems */
                            count: number;
                            /** @description Why the segment matches nothing, e.g. a property removed from the book */
                            problems: string[];
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contactBooks/{contactBookId}/segments/{segmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a segment with its live count and problems */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                    segmentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Active readers",
                         *       "description": "Example",
                         *       "definition": {
                         *         "version": 1,
                         *         "match": "all",
                         *         "conditions": [
                         *           {
                         *             "type": "email",
                         *             "op": "equals",
                         *             "value": "pro"
                         *           }
                         *         ]
                         *       },
                         *       "count": 1,
                         *       "problems": [
                         *         "example"
                         *       ],
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            contactBookId: string;
                            name: string;
                            description: string | null;
                            definition: {
                                /** @enum {number} */
                                version: 1;
                                /** @enum {string} */
                                match: "all" | "any";
                                conditions: ({
                                    /** @enum {string} */
                                    type: "email";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "ends_with";
                                    value: string;
                                } | {
                                    /** @enum {string} */
                                    type: "first_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "last_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "subscribed";
                                    /** @enum {string} */
                                    op: "is";
                                    /** @description true: subscribed and, in a double opt-in book, confirmed */
                                    value: boolean;
                                } | {
                                    /** @enum {string} */
                                    type: "added";
                                    /** @enum {string} */
                                    op: "before" | "after" | "in_last_days";
                                    /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                    value: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "property";
                                    /** @description A variable of the contact book (the book's `variables`) */
                                    key: string;
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                    /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                    value?: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "email_activity";
                                    /** @enum {string} */
                                    event: "received" | "opened" | "clicked";
                                    /** @enum {string} */
                                    op: "in_last_days" | "ever" | "never";
                                    /** @description Required with in_last_days */
                                    days?: number;
                                    /** @description Only emails of this campaign */
                                    campaignId?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "email_problem";
                                    /** @enum {string} */
                                    event: "bounced" | "complained";
                                    /** @enum {string} */
                                    op: "ever" | "never";
                                } | {
                                    /** @enum {string} */
                                    type: "journey";
                                    /** @enum {string} */
                                    op: "is_in" | "completed" | "exited" | "not_in";
                                    journeyId: string;
                                } | {
                                    /** @enum {string} */
                                    type: "group";
                                    /** @enum {string} */
                                    match: "all" | "any";
                                    /** @description Conditions of any type but group (groups nest one level only) */
                                    conditions: ({
                                        /** @enum {string} */
                                        type: "email";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "ends_with";
                                        value: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "first_name";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                        /** @description Not used with is_set and is_empty */
                                        value?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "last_name";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                        /** @description Not used with is_set and is_empty */
                                        value?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "subscribed";
                                        /** @enum {string} */
                                        op: "is";
                                        /** @description true: subscribed and, in a double opt-in book, confirmed */
                                        value: boolean;
                                    } | {
                                        /** @enum {string} */
                                        type: "added";
                                        /** @enum {string} */
                                        op: "before" | "after" | "in_last_days";
                                        /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                        value: string | number;
                                    } | {
                                        /** @enum {string} */
                                        type: "property";
                                        /** @description A variable of the contact book (the book's `variables`) */
                                        key: string;
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                        /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                        value?: string | number;
                                    } | {
                                        /** @enum {string} */
                                        type: "email_activity";
                                        /** @enum {string} */
                                        event: "received" | "opened" | "clicked";
                                        /** @enum {string} */
                                        op: "in_last_days" | "ever" | "never";
                                        /** @description Required with in_last_days */
                                        days?: number;
                                        /** @description Only emails of this campaign */
                                        campaignId?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "email_problem";
                                        /** @enum {string} */
                                        event: "bounced" | "complained";
                                        /** @enum {string} */
                                        op: "ever" | "never";
                                    } | {
                                        /** @enum {string} */
                                        type: "journey";
                                        /** @enum {string} */
                                        op: "is_in" | "completed" | "exited" | "not_in";
                                        journeyId: string;
                                    })[];
                                })[];
                            };
                            /** @description Contacts matching right now; 0 while the segment has problems */
                            count: number;
                            /** @description Why the segment matches nothing, e.g. a property removed from the book */
                            problems: string[];
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a segment
         * @description Refused (400) while an active journey or a scheduled or running campaign uses it.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                    segmentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            id: string;
                            deleted: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Rename, describe or redefine a segment
         * @description Fields left out are unchanged. A segment used by an active journey or a live campaign can be renamed but not redefined (400).
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                    segmentId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Active readers",
                     *       "description": "Example",
                     *       "definition": {
                     *         "version": 1,
                     *         "match": "all",
                     *         "conditions": [
                     *           {
                     *             "type": "email",
                     *             "op": "equals",
                     *             "value": "pro"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description Unique within the contact book */
                        name?: string;
                        description?: string | null;
                        /** @description version 1; match `all` or `any`; conditions (at most 20 counting those inside groups). Condition `type`s: `email` (op equals, not_equals, contains, ends_with; value), `first_name` and `last_name` (op equals, not_equals, contains, is_set, is_empty; value), `subscribed` (op is; value true/false), `added` (op before, after with an ISO date value; in_last_days with a number of days), `property` (key: a variable of the book; op equals, not_equals, contains, is_set, is_empty, gt, gte, lt, lte; value), `email_activity` (event received, opened, clicked; op in_last_days with days, ever, never; optional campaignId), `email_problem` (event bounced, complained; op ever, never), `journey` (op is_in, completed, exited, not_in; journeyId), `group` (match; conditions of any other type: groups nest one level only). Text comparisons ignore case. */
                        definition?: {
                            /** @enum {number} */
                            version: 1;
                            /** @enum {string} */
                            match: "all" | "any";
                            conditions: ({
                                /** @enum {string} */
                                type: "email";
                                /** @enum {string} */
                                op: "equals" | "not_equals" | "contains" | "ends_with";
                                value: string;
                            } | {
                                /** @enum {string} */
                                type: "first_name";
                                /** @enum {string} */
                                op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                /** @description Not used with is_set and is_empty */
                                value?: string;
                            } | {
                                /** @enum {string} */
                                type: "last_name";
                                /** @enum {string} */
                                op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                /** @description Not used with is_set and is_empty */
                                value?: string;
                            } | {
                                /** @enum {string} */
                                type: "subscribed";
                                /** @enum {string} */
                                op: "is";
                                /** @description true: subscribed and, in a double opt-in book, confirmed */
                                value: boolean;
                            } | {
                                /** @enum {string} */
                                type: "added";
                                /** @enum {string} */
                                op: "before" | "after" | "in_last_days";
                                /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                value: string | number;
                            } | {
                                /** @enum {string} */
                                type: "property";
                                /** @description A variable of the contact book (the book's `variables`) */
                                key: string;
                                /** @enum {string} */
                                op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                value?: string | number;
                            } | {
                                /** @enum {string} */
                                type: "email_activity";
                                /** @enum {string} */
                                event: "received" | "opened" | "clicked";
                                /** @enum {string} */
                                op: "in_last_days" | "ever" | "never";
                                /** @description Required with in_last_days */
                                days?: number;
                                /** @description Only emails of this campaign */
                                campaignId?: string;
                            } | {
                                /** @enum {string} */
                                type: "email_problem";
                                /** @enum {string} */
                                event: "bounced" | "complained";
                                /** @enum {string} */
                                op: "ever" | "never";
                            } | {
                                /** @enum {string} */
                                type: "journey";
                                /** @enum {string} */
                                op: "is_in" | "completed" | "exited" | "not_in";
                                journeyId: string;
                            } | {
                                /** @enum {string} */
                                type: "group";
                                /** @enum {string} */
                                match: "all" | "any";
                                /** @description Conditions of any type but group (groups nest one level only) */
                                conditions: ({
                                    /** @enum {string} */
                                    type: "email";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "ends_with";
                                    value: string;
                                } | {
                                    /** @enum {string} */
                                    type: "first_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "last_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "subscribed";
                                    /** @enum {string} */
                                    op: "is";
                                    /** @description true: subscribed and, in a double opt-in book, confirmed */
                                    value: boolean;
                                } | {
                                    /** @enum {string} */
                                    type: "added";
                                    /** @enum {string} */
                                    op: "before" | "after" | "in_last_days";
                                    /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                    value: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "property";
                                    /** @description A variable of the contact book (the book's `variables`) */
                                    key: string;
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                    /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                    value?: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "email_activity";
                                    /** @enum {string} */
                                    event: "received" | "opened" | "clicked";
                                    /** @enum {string} */
                                    op: "in_last_days" | "ever" | "never";
                                    /** @description Required with in_last_days */
                                    days?: number;
                                    /** @description Only emails of this campaign */
                                    campaignId?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "email_problem";
                                    /** @enum {string} */
                                    event: "bounced" | "complained";
                                    /** @enum {string} */
                                    op: "ever" | "never";
                                } | {
                                    /** @enum {string} */
                                    type: "journey";
                                    /** @enum {string} */
                                    op: "is_in" | "completed" | "exited" | "not_in";
                                    journeyId: string;
                                })[];
                            })[];
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Active readers",
                         *       "description": "Example",
                         *       "definition": {
                         *         "version": 1,
                         *         "match": "all",
                         *         "conditions": [
                         *           {
                         *             "type": "email",
                         *             "op": "equals",
                         *             "value": "pro"
                         *           }
                         *         ]
                         *       },
                         *       "count": 1,
                         *       "problems": [
                         *         "example"
                         *       ],
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            contactBookId: string;
                            name: string;
                            description: string | null;
                            definition: {
                                /** @enum {number} */
                                version: 1;
                                /** @enum {string} */
                                match: "all" | "any";
                                conditions: ({
                                    /** @enum {string} */
                                    type: "email";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "ends_with";
                                    value: string;
                                } | {
                                    /** @enum {string} */
                                    type: "first_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "last_name";
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                    /** @description Not used with is_set and is_empty */
                                    value?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "subscribed";
                                    /** @enum {string} */
                                    op: "is";
                                    /** @description true: subscribed and, in a double opt-in book, confirmed */
                                    value: boolean;
                                } | {
                                    /** @enum {string} */
                                    type: "added";
                                    /** @enum {string} */
                                    op: "before" | "after" | "in_last_days";
                                    /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                    value: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "property";
                                    /** @description A variable of the contact book (the book's `variables`) */
                                    key: string;
                                    /** @enum {string} */
                                    op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                    /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                    value?: string | number;
                                } | {
                                    /** @enum {string} */
                                    type: "email_activity";
                                    /** @enum {string} */
                                    event: "received" | "opened" | "clicked";
                                    /** @enum {string} */
                                    op: "in_last_days" | "ever" | "never";
                                    /** @description Required with in_last_days */
                                    days?: number;
                                    /** @description Only emails of this campaign */
                                    campaignId?: string;
                                } | {
                                    /** @enum {string} */
                                    type: "email_problem";
                                    /** @enum {string} */
                                    event: "bounced" | "complained";
                                    /** @enum {string} */
                                    op: "ever" | "never";
                                } | {
                                    /** @enum {string} */
                                    type: "journey";
                                    /** @enum {string} */
                                    op: "is_in" | "completed" | "exited" | "not_in";
                                    journeyId: string;
                                } | {
                                    /** @enum {string} */
                                    type: "group";
                                    /** @enum {string} */
                                    match: "all" | "any";
                                    /** @description Conditions of any type but group (groups nest one level only) */
                                    conditions: ({
                                        /** @enum {string} */
                                        type: "email";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "ends_with";
                                        value: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "first_name";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                        /** @description Not used with is_set and is_empty */
                                        value?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "last_name";
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty";
                                        /** @description Not used with is_set and is_empty */
                                        value?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "subscribed";
                                        /** @enum {string} */
                                        op: "is";
                                        /** @description true: subscribed and, in a double opt-in book, confirmed */
                                        value: boolean;
                                    } | {
                                        /** @enum {string} */
                                        type: "added";
                                        /** @enum {string} */
                                        op: "before" | "after" | "in_last_days";
                                        /** @description before/after: an ISO date (midnight UTC) or date-time; in_last_days: a number of days */
                                        value: string | number;
                                    } | {
                                        /** @enum {string} */
                                        type: "property";
                                        /** @description A variable of the contact book (the book's `variables`) */
                                        key: string;
                                        /** @enum {string} */
                                        op: "equals" | "not_equals" | "contains" | "is_set" | "is_empty" | "gt" | "gte" | "lt" | "lte";
                                        /** @description Text for equals/not_equals/contains, a number for gt/gte/lt/lte; not used with is_set and is_empty */
                                        value?: string | number;
                                    } | {
                                        /** @enum {string} */
                                        type: "email_activity";
                                        /** @enum {string} */
                                        event: "received" | "opened" | "clicked";
                                        /** @enum {string} */
                                        op: "in_last_days" | "ever" | "never";
                                        /** @description Required with in_last_days */
                                        days?: number;
                                        /** @description Only emails of this campaign */
                                        campaignId?: string;
                                    } | {
                                        /** @enum {string} */
                                        type: "email_problem";
                                        /** @enum {string} */
                                        event: "bounced" | "complained";
                                        /** @enum {string} */
                                        op: "ever" | "never";
                                    } | {
                                        /** @enum {string} */
                                        type: "journey";
                                        /** @enum {string} */
                                        op: "is_in" | "completed" | "exited" | "not_in";
                                        journeyId: string;
                                    })[];
                                })[];
                            };
                            /** @description Contacts matching right now; 0 while the segment has problems */
                            count: number;
                            /** @description Why the segment matches nothing, e.g. a property removed from the book */
                            problems: string[];
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/contactBooks/{contactBookId}/segments/{segmentId}/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The contacts a segment matches right now, ordered by id
         * @description Cursor-paged: pass back nextCursor; limit 1 to 100 (default 50). total counts every match. Empty while the segment has problems.
         */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    contactBookId: string;
                    segmentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "email": "ada@example.com",
                         *           "firstName": "Ada",
                         *           "lastName": "Lovelace",
                         *           "subscribed": true,
                         *           "properties": {
                         *             "plan": "pro"
                         *           },
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w",
                         *       "total": 1
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: string;
                                email: string;
                                firstName: string | null;
                                lastName: string | null;
                                /** @description false for a double opt-in contact who has not confirmed */
                                subscribed: boolean;
                                properties: {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                createdAt: string;
                                /** Format: date-time */
                                updatedAt: string;
                            }[];
                            nextCursor: string | null;
                            total: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/email-time-series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Emails sent, delivered, opened, clicked, bounced and complained per UTC day
         * @description One entry per day for the last `days` UTC days ending today, days without mail included (zeros). Each count is of emails, on the day of its first event of that kind: `sent` counts an email once when a relay or the recipient's server took it; a second open of the same email is not counted again.
         */
        get: {
            parameters: {
                query?: {
                    /** @description How many UTC days, ending today */
                    days?: "7" | "30";
                    /** @description Only this domain's emails; a key limited to one domain sees its domain whether or not this is given */
                    domainId?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "result": [
                         *         {
                         *           "date": "2026-01-15",
                         *           "sent": 120,
                         *           "delivered": 118,
                         *           "opened": 64,
                         *           "clicked": 21,
                         *           "bounced": 2,
                         *           "complained": 0
                         *         }
                         *       ],
                         *       "totalCounts": {
                         *         "sent": 120,
                         *         "delivered": 118,
                         *         "opened": 64,
                         *         "clicked": 21,
                         *         "bounced": 2,
                         *         "complained": 0
                         *       }
                         *     }
                         */
                        "application/json": {
                            result: {
                                /** @description UTC day, YYYY-MM-DD */
                                date: string;
                                sent: number;
                                delivered: number;
                                opened: number;
                                clicked: number;
                                bounced: number;
                                complained: number;
                            }[];
                            totalCounts: {
                                sent: number;
                                delivered: number;
                                opened: number;
                                clicked: number;
                                bounced: number;
                                complained: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/reputation-metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delivered, hard-bounced and complained emails over all time, with bounce and complaint rates
         * @description bounceRate = hardBounced / N and complaintRate = complained / N, as fractions (0.02 is 2%). N is `delivered` when at least one delivery was reported in the scope asked for (the team, or the `domainId`), else the number of emails sent (taken by a relay or the log transport; not a field of the response), because the relay and log transports record DELIVERED only when a delivery report comes back. Both rates are 0 when N is 0.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only this domain's emails; a key limited to one domain sees its domain whether or not this is given */
                    domainId?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "delivered": 118,
                         *       "hardBounced": 1,
                         *       "complained": 0,
                         *       "bounceRate": 0.0167,
                         *       "complaintRate": 0
                         *     }
                         */
                        "application/json": {
                            /** @description emails with a reported delivery (under the relay and log transports, only from delivery reports) */
                            delivered: number;
                            hardBounced: number;
                            complained: number;
                            /** @description hardBounced / delivered once any delivery was reported, else hardBounced / emails sent; a fraction (0.02 is 2%), 0 when that is 0 */
                            bounceRate: number;
                            /** @description complained / delivered once any delivery was reported, else complained / emails sent; a fraction, 0 when that is 0 */
                            complaintRate: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contactBooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the team's contact books, oldest first
         * @description Every book of the team, also for a key limited to one domain (books are not tied to domains).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "name": "Newsletter",
                         *         "teamId": 2,
                         *         "properties": {
                         *           "plan": "pro"
                         *         },
                         *         "variables": [
                         *           "firstName"
                         *         ],
                         *         "emoji": "📬",
                         *         "doubleOptInEnabled": true,
                         *         "doubleOptInFrom": "hello@example.com",
                         *         "doubleOptInSubject": "Please confirm your subscription",
                         *         "doubleOptInContent": null,
                         *         "createdAt": "2026-01-15T09:30:00.000Z",
                         *         "updatedAt": "2026-01-15T09:30:00.000Z",
                         *         "_count": {
                         *           "contacts": 1
                         *         }
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            teamId: number;
                            properties: {
                                [key: string]: string;
                            };
                            variables: string[];
                            emoji: string;
                            doubleOptInEnabled: boolean;
                            doubleOptInFrom: string | null;
                            doubleOptInSubject: string | null;
                            doubleOptInContent: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            _count: {
                                contacts: number;
                            };
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a contact book
         * @description emoji defaults to 📙. doubleOptInFrom must be an address on a verified domain of the team; doubleOptInContent is an editor document (JSON text). With doubleOptInEnabled, new contacts start unsubscribed and unconfirmed and are sent a confirmation email.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Newsletter"
                     *     }
                     */
                    "application/json": {
                        name: string;
                        /** @description default 📙 */
                        emoji?: string;
                        /** @description map of string to string: at most 100 entries, names 1 to 100 characters, values at most 2000 */
                        properties?: {
                            [key: string]: string;
                        };
                        doubleOptInEnabled?: boolean;
                        /** @description `address` or `Name <address>`; the address must be on a verified domain of the team */
                        doubleOptInFrom?: string | null;
                        doubleOptInSubject?: string | null;
                        /** @description the confirmation email as an editor document (JSON text, see docs/templates.md) */
                        doubleOptInContent?: string | null;
                        /** @description allowed personalisation variables for contacts in the book: at most 100, each 1 to 100 characters */
                        variables?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Newsletter",
                         *       "teamId": 2,
                         *       "properties": {
                         *         "plan": "pro"
                         *       },
                         *       "variables": [
                         *         "firstName"
                         *       ],
                         *       "emoji": "📬",
                         *       "doubleOptInEnabled": true,
                         *       "doubleOptInFrom": "hello@example.com",
                         *       "doubleOptInSubject": "Please confirm your subscription",
                         *       "doubleOptInContent": null,
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "_count": {
                         *         "contacts": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            teamId: number;
                            properties: {
                                [key: string]: string;
                            };
                            variables: string[];
                            emoji: string;
                            doubleOptInEnabled: boolean;
                            doubleOptInFrom: string | null;
                            doubleOptInSubject: string | null;
                            doubleOptInContent: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            _count: {
                                contacts: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contactBooks/{contactBookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a contact book */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Newsletter",
                         *       "teamId": 2,
                         *       "properties": {
                         *         "plan": "pro"
                         *       },
                         *       "variables": [
                         *         "firstName"
                         *       ],
                         *       "emoji": "📬",
                         *       "doubleOptInEnabled": true,
                         *       "doubleOptInFrom": "hello@example.com",
                         *       "doubleOptInSubject": "Please confirm your subscription",
                         *       "doubleOptInContent": null,
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "_count": {
                         *         "contacts": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            teamId: number;
                            properties: {
                                [key: string]: string;
                            };
                            variables: string[];
                            emoji: string;
                            doubleOptInEnabled: boolean;
                            doubleOptInFrom: string | null;
                            doubleOptInSubject: string | null;
                            doubleOptInContent: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            _count: {
                                contacts: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a contact book and every contact in it */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "success": true,
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            success: boolean;
                            message: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a contact book
         * @description Fields left out are unchanged; properties and variables sent replace the stored ones. Turning double opt-in on or off affects contacts created afterwards only.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Newsletter",
                     *       "doubleOptInEnabled": true,
                     *       "doubleOptInFrom": "Acme <hello@example.com>",
                     *       "doubleOptInSubject": "Please confirm your subscription"
                     *     }
                     */
                    "application/json": {
                        name?: string;
                        /** @description default 📙 */
                        emoji?: string;
                        /** @description map of string to string: at most 100 entries, names 1 to 100 characters, values at most 2000 */
                        properties?: {
                            [key: string]: string;
                        };
                        doubleOptInEnabled?: boolean;
                        /** @description `address` or `Name <address>`; the address must be on a verified domain of the team */
                        doubleOptInFrom?: string | null;
                        doubleOptInSubject?: string | null;
                        /** @description the confirmation email as an editor document (JSON text, see docs/templates.md) */
                        doubleOptInContent?: string | null;
                        /** @description allowed personalisation variables for contacts in the book: at most 100, each 1 to 100 characters */
                        variables?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Newsletter",
                         *       "teamId": 2,
                         *       "properties": {
                         *         "plan": "pro"
                         *       },
                         *       "variables": [
                         *         "firstName"
                         *       ],
                         *       "emoji": "📬",
                         *       "doubleOptInEnabled": true,
                         *       "doubleOptInFrom": "hello@example.com",
                         *       "doubleOptInSubject": "Please confirm your subscription",
                         *       "doubleOptInContent": null,
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "_count": {
                         *         "contacts": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            teamId: number;
                            properties: {
                                [key: string]: string;
                            };
                            variables: string[];
                            emoji: string;
                            doubleOptInEnabled: boolean;
                            doubleOptInFrom: string | null;
                            doubleOptInSubject: string | null;
                            doubleOptInContent: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            _count: {
                                contacts: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "This key is limited to another domain and has no access to this one"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "Not found"
                         *     }
                         */
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/contactBooks/{contactBookId}/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a book's contacts in id (creation) order
         * @description Filters `emails` and `ids` take several values comma-separated (`emails=a@x.io,b@x.io`), repeated (`emails=a@x.io&emails=b@x.io`) or both, at most 1,000 each; emails match lower-cased; both filters together must both match; an empty one filters nothing. page 1 to 10000 (default 1), limit 1 to 200 (default 50).
         */
        get: {
            parameters: {
                query?: {
                    /** @description only these addresses (matched lower-cased); comma-separated and/or repeated */
                    emails?: string | string[];
                    /** @description only these contact ids; comma-separated and/or repeated */
                    ids?: string | string[];
                    page?: number;
                    limit?: number;
                };
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "firstName": "Ada",
                         *         "lastName": "Lovelace",
                         *         "email": "ada@example.com",
                         *         "subscribed": true,
                         *         "properties": {
                         *           "plan": "pro"
                         *         },
                         *         "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "createdAt": "2026-01-15T09:30:00.000Z",
                         *         "updatedAt": "2026-01-15T09:30:00.000Z"
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            firstName: string | null;
                            lastName: string | null;
                            email: string;
                            subscribed: boolean;
                            properties: {
                                [key: string]: string;
                            };
                            contactBookId: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a contact
         * @description The email is stored trimmed and lower-cased and is unique within the book: a second contact with it answers 409 NOT_UNIQUE (PUT or bulk add upsert).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "email": "ada@example.com"
                     *     }
                     */
                    "application/json": {
                        /** @description stored trimmed and lower-cased; at most 320 characters */
                        email: string;
                        firstName?: string | null;
                        lastName?: string | null;
                        /** @description map of string to string: at most 100 entries, names 1 to 100 characters, values at most 2000 */
                        properties?: {
                            [key: string]: string;
                        };
                        /** @description default true; ignored when the book uses double opt-in (the contact subscribes by confirming) */
                        subscribed?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "contactId": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            contactId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contactBooks/{contactBookId}/contacts/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add or update up to 1000 contacts by email, all or nothing
         * @description Upserts by email in one transaction: one invalid entry refuses the whole request (400 naming it) and nothing is stored. An address given twice is one contact (later fields win). Existing contacts keep fields left out. count is how many contacts were added or updated.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            /** @description 1 to 1000 contacts */
            requestBody: {
                content: {
                    /**
                     * @example [
                     *       {
                     *         "email": "ada@example.com"
                     *       }
                     *     ]
                     */
                    "application/json": {
                        /** @description stored trimmed and lower-cased; at most 320 characters */
                        email: string;
                        firstName?: string | null;
                        lastName?: string | null;
                        /** @description map of string to string: at most 100 entries, names 1 to 100 characters, values at most 2000 */
                        properties?: {
                            [key: string]: string;
                        };
                        /** @description default true; ignored when the book uses double opt-in (the contact subscribes by confirming) */
                        subscribed?: boolean;
                    }[];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "count": 1
                         *     }
                         */
                        "application/json": {
                            message: string;
                            count: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        /**
         * Delete up to 1000 contacts by id
         * @description Ids that are not contacts of the book are skipped; count is how many were deleted.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "contactIds": [
                     *         "ct_01kf0m3q7r9t5v6w8y0z1a2b3c"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        contactIds: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "success": true,
                         *       "count": 1
                         *     }
                         */
                        "application/json": {
                            success: boolean;
                            count: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contactBooks/{contactBookId}/contacts/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a contact */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                    contactId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "firstName": "Ada",
                         *       "lastName": "Lovelace",
                         *       "email": "ada@example.com",
                         *       "subscribed": true,
                         *       "properties": {
                         *         "plan": "pro"
                         *       },
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            firstName: string | null;
                            lastName: string | null;
                            email: string;
                            subscribed: boolean;
                            properties: {
                                [key: string]: string;
                            };
                            contactBookId: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        /**
         * Create or update a contact
         * @description With an email: the path contactId must be the contact that email belongs to (updated), or the email must be new to the book (the contact at the path id takes it; when there is none a contact is created, with a new id returned as contactId). An email that belongs to another contact answers 409 NOT_UNIQUE. Without an email the contact must exist (404 otherwise) and is updated by id.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                    contactId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "email": "ada@example.com",
                     *       "firstName": "Ada",
                     *       "lastName": "Lovelace",
                     *       "properties": {
                     *         "plan": "pro"
                     *       },
                     *       "subscribed": true
                     *     }
                     */
                    "application/json": {
                        /** @description stored trimmed and lower-cased; at most 320 characters */
                        email?: string;
                        firstName?: string | null;
                        lastName?: string | null;
                        /** @description map of string to string: at most 100 entries, names 1 to 100 characters, values at most 2000 */
                        properties?: {
                            [key: string]: string;
                        };
                        /** @description default true; ignored when the book uses double opt-in (the contact subscribes by confirming) */
                        subscribed?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "contactId": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            contactId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        post?: never;
        /** Delete a contact */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                    contactId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "success": true
                         *     }
                         */
                        "application/json": {
                            success: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a contact
         * @description Send only what changes; properties sent replace the stored map. The email is changed with PUT.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    contactBookId: string;
                    contactId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "firstName": "Ada",
                     *       "lastName": "Lovelace",
                     *       "properties": {
                     *         "plan": "pro"
                     *       },
                     *       "subscribed": true
                     *     }
                     */
                    "application/json": {
                        firstName?: string | null;
                        lastName?: string | null;
                        /** @description map of string to string: at most 100 entries, names 1 to 100 characters, values at most 2000 */
                        properties?: {
                            [key: string]: string;
                        };
                        /** @description default true; ignored when the book uses double opt-in (the contact subscribes by confirming) */
                        subscribed?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "contactId": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            contactId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the audit log of billing reads and of key and suppression changes, newest first
         * @description Every billing read with its key (id, name, kind, maker), path and query, status and error code; and every API key created or revoked and suppression added or removed through the API, with its action and target. limit 1 to 100 (default 20); pass nextCursor back as cursor.
         */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "aud_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "key": {
                         *             "id": "aud_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *             "name": "Acme",
                         *             "kind": "example",
                         *             "memberId": 3
                         *           },
                         *           "method": "example",
                         *           "path": "example",
                         *           "query": "example",
                         *           "status": 1,
                         *           "errorCode": null,
                         *           "action": "api_key.created",
                         *           "target": null,
                         *           "createdAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["AuditLogEntry"][];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the team's webhook calls, newest first
         * @description Calls are kept for 30 days. A cursor from another list or team answers 400.
         */
        get: {
            parameters: {
                query?: {
                    webhookId?: string;
                    status?: "PENDING" | "IN_PROGRESS" | "DELIVERED" | "FAILED" | "DISCARDED";
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "whc_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "webhookId": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "type": "email.delivered",
                         *           "status": "PENDING",
                         *           "attempt": 1,
                         *           "nextAttemptAt": "2026-01-15T09:30:00.000Z",
                         *           "lastError": null,
                         *           "responseStatus": 200,
                         *           "responseTimeMs": 142,
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["WebhookCall"][];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/calls/{callId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook call with its payload and the start of the response */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    callId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "whc_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "webhookId": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "type": "email.delivered",
                         *       "status": "PENDING",
                         *       "attempt": 1,
                         *       "nextAttemptAt": "2026-01-15T09:30:00.000Z",
                         *       "lastError": null,
                         *       "responseStatus": 200,
                         *       "responseTimeMs": 142,
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "apiVersion": null,
                         *       "payload": "example",
                         *       "responseText": null
                         *     }
                         */
                        "application/json": components["schemas"]["WebhookCallDetail"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/calls/{callId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a failed or dropped call again
         * @description Same event data, the webhook's saved URL, a fresh set of attempts. A delivered call or one still being delivered answers 409 CONFLICT. At most 30 retries a minute.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    callId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "callId": "whc_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            callId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the team's webhooks, newest first, each with its last 24 hours of calls */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "url": "https://example.com/webhooks/herald",
                         *           "description": "Example",
                         *           "status": "ACTIVE",
                         *           "eventTypes": [
                         *             "email.delivered"
                         *           ],
                         *           "domainIds": [
                         *             1
                         *           ],
                         *           "apiVersion": null,
                         *           "consecutiveFailures": 1,
                         *           "lastFailureAt": "2026-01-15T09:30:00.000Z",
                         *           "lastSuccessAt": "2026-01-15T09:30:00.000Z",
                         *           "secretHint": "example",
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z",
                         *           "secret": "example",
                         *           "last24h": {
                         *             "ok": 1,
                         *             "retried": 1,
                         *             "failed": 1
                         *           }
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["Webhook"][];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a webhook
         * @description The URL must be https with a public hostname (checked again before every delivery). At most 20 creations a minute; the plan allows 5 webhooks on free and 50 on pro (403 past it). The response carries the signing secret, shown only here.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "url": "https://example.com/webhooks/herald",
                     *       "eventTypes": [
                     *         "email.scheduled"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description https URL with a public hostname, at most 2048 characters; checked again before every delivery */
                        url: string;
                        /** @description event types to receive; an empty list means every event */
                        eventTypes: ("email.scheduled" | "email.queued" | "email.sent" | "email.delivery_delayed" | "email.bounced" | "email.rejected" | "email.rendering_failure" | "email.delivered" | "email.opened" | "email.clicked" | "email.complained" | "email.failed" | "email.cancelled" | "email.suppressed" | "sms.sent" | "sms.delivered" | "sms.failed" | "sms.rejected" | "journey.run.completed" | "journey.run.exited" | "campaign.started" | "campaign.paused" | "campaign.sent" | "email.received" | "webhook.test")[];
                        description?: string;
                        /** @description the team's domain ids whose events to receive; an empty list means every domain */
                        domainIds?: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "url": "https://example.com/webhooks/herald",
                         *       "description": "Example",
                         *       "status": "ACTIVE",
                         *       "eventTypes": [
                         *         "email.delivered"
                         *       ],
                         *       "domainIds": [
                         *         1
                         *       ],
                         *       "apiVersion": null,
                         *       "consecutiveFailures": 1,
                         *       "lastFailureAt": "2026-01-15T09:30:00.000Z",
                         *       "lastSuccessAt": "2026-01-15T09:30:00.000Z",
                         *       "secretHint": "example",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "secret": "example",
                         *       "last24h": {
                         *         "ok": 1,
                         *         "retried": 1,
                         *         "failed": 1
                         *       }
                         *     }
                         */
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook (secret masked) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "url": "https://example.com/webhooks/herald",
                         *       "description": "Example",
                         *       "status": "ACTIVE",
                         *       "eventTypes": [
                         *         "email.delivered"
                         *       ],
                         *       "domainIds": [
                         *         1
                         *       ],
                         *       "apiVersion": null,
                         *       "consecutiveFailures": 1,
                         *       "lastFailureAt": "2026-01-15T09:30:00.000Z",
                         *       "lastSuccessAt": "2026-01-15T09:30:00.000Z",
                         *       "secretHint": "example",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "secret": "example",
                         *       "last24h": {
                         *         "ok": 1,
                         *         "retried": 1,
                         *         "failed": 1
                         *       }
                         *     }
                         */
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a webhook and its call log, permanently */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            id: string;
                            deleted: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Update a webhook; send only the changes
         * @description description null clears it. The signing secret is unchanged. A new URL is checked like at creation and emails the owner and admins.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "url": "https://example.com/webhooks/herald",
                     *       "eventTypes": [
                     *         "email.scheduled"
                     *       ],
                     *       "description": "Example",
                     *       "domainIds": [
                     *         1
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description https URL with a public hostname, at most 2048 characters; checked again before every delivery */
                        url?: string;
                        /** @description event types to receive; an empty list means every event */
                        eventTypes?: ("email.scheduled" | "email.queued" | "email.sent" | "email.delivery_delayed" | "email.bounced" | "email.rejected" | "email.rendering_failure" | "email.delivered" | "email.opened" | "email.clicked" | "email.complained" | "email.failed" | "email.cancelled" | "email.suppressed" | "sms.sent" | "sms.delivered" | "sms.failed" | "sms.rejected" | "journey.run.completed" | "journey.run.exited" | "campaign.started" | "campaign.paused" | "campaign.sent" | "email.received" | "webhook.test")[];
                        /** @description null clears it */
                        description?: string | null;
                        /** @description the team's domain ids whose events to receive; an empty list means every domain */
                        domainIds?: number[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "url": "https://example.com/webhooks/herald",
                         *       "description": "Example",
                         *       "status": "ACTIVE",
                         *       "eventTypes": [
                         *         "email.delivered"
                         *       ],
                         *       "domainIds": [
                         *         1
                         *       ],
                         *       "apiVersion": null,
                         *       "consecutiveFailures": 1,
                         *       "lastFailureAt": "2026-01-15T09:30:00.000Z",
                         *       "lastSuccessAt": "2026-01-15T09:30:00.000Z",
                         *       "secretHint": "example",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "secret": "example",
                         *       "last24h": {
                         *         "ok": 1,
                         *         "retried": 1,
                         *         "failed": 1
                         *       }
                         *     }
                         */
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/webhooks/{webhookId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a webhook or turn it on again
         * @description PAUSED: events stop being sent (pending calls wait). ACTIVE: consecutiveFailures is reset to 0 and events are sent again.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "status": "ACTIVE"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ACTIVE" | "PAUSED";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "url": "https://example.com/webhooks/herald",
                         *       "description": "Example",
                         *       "status": "ACTIVE",
                         *       "eventTypes": [
                         *         "email.delivered"
                         *       ],
                         *       "domainIds": [
                         *         1
                         *       ],
                         *       "apiVersion": null,
                         *       "consecutiveFailures": 1,
                         *       "lastFailureAt": "2026-01-15T09:30:00.000Z",
                         *       "lastSuccessAt": "2026-01-15T09:30:00.000Z",
                         *       "secretHint": "example",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "secret": "example",
                         *       "last24h": {
                         *         "ok": 1,
                         *         "retried": 1,
                         *         "failed": 1
                         *       }
                         *     }
                         */
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhookId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a webhook.test event to the saved URL, signed like a real event
         * @description At most 10 test events a minute. No URL is accepted: the event goes to the webhook's saved URL.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "callId": "whc_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            callId: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhookId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the signing secret
         * @description The old secret stops at once: every attempt from now on, retries included, is signed with the new one. At most 10 rotations a minute.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    webhookId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "wh_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "url": "https://example.com/webhooks/herald",
                         *       "description": "Example",
                         *       "status": "ACTIVE",
                         *       "eventTypes": [
                         *         "email.delivered"
                         *       ],
                         *       "domainIds": [
                         *         1
                         *       ],
                         *       "apiVersion": null,
                         *       "consecutiveFailures": 1,
                         *       "lastFailureAt": "2026-01-15T09:30:00.000Z",
                         *       "lastSuccessAt": "2026-01-15T09:30:00.000Z",
                         *       "secretHint": "example",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "secret": "example",
                         *       "last24h": {
                         *         "ok": 1,
                         *         "retried": 1,
                         *         "failed": 1
                         *       }
                         *     }
                         */
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SMS messages, newest first
         * @description limit 1 to 100 (default 50); status filters on one status; pass nextCursor back as cursor.
         */
        get: {
            parameters: {
                query?: {
                    cursor?: string;
                    limit?: number;
                    status?: "queued" | "sent" | "delivered" | "failed" | "rejected";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "sms_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "to": "+14155550123",
                         *           "status": "queued",
                         *           "segments": 1,
                         *           "charge": {
                         *             "currency": "USD",
                         *             "amount": "10.00"
                         *           },
                         *           "reason": {
                         *             "code": "123456",
                         *             "message": "example"
                         *           },
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["SmsMessage"][];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Send an SMS charged to the team wallet
         * @description to: E.164 (+ then 2 to 15 digits, no spaces or dashes), valid for its country. text: 1 to 1,600 characters, billed per segment: GSM-7 160 characters in one part, 153 per part when longer (extension characters count two); anything else 70 and 67. The charge (segments × the price for the destination in the team currency, rounded half away from zero to the minor unit) is taken from the wallet when the message is queued: 402 with nothing stored when the wallet cannot cover it, returned if the provider refuses the message (status rejected). 403 when SMS is off for the team or the deployment does not send to the destination country. 422 RISK_REFUSED (with `risk`) for premium-rate numbers and bursts that look like SMS pumping.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "to": "+14155550123",
                     *       "text": "Hello Ada, welcome aboard."
                     *     }
                     */
                    "application/json": {
                        /** @description E.164 phone number, e.g. +14155550123 (no spaces or dashes) */
                        to: string;
                        /** @description 1 to 1600 characters */
                        text: string;
                        /** @description at most 11 characters; must be approved for the team and the destination country; default: the team's approved sender ID for the destination country, else the shared one */
                        senderId?: string;
                        /** @description the end user's IP address, for risk scoring; only a keyed hash is stored */
                        clientIp?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "sms_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "to": "+14155550123",
                         *       "status": "queued",
                         *       "segments": 1,
                         *       "charge": {
                         *         "currency": "USD",
                         *         "amount": "10.00"
                         *       },
                         *       "reason": {
                         *         "code": "123456",
                         *         "message": "example"
                         *       },
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["SmsMessage"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "INSUFFICIENT_BALANCE",
                         *         "message": "The wallet is empty: top it up first"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RISK_REFUSED",
                         *         "message": "Refused by risk scoring (score 70): 5 or more messages to numbers with this prefix in the last 10 minutes"
                         *       },
                         *       "risk": {
                         *         "score": 70,
                         *         "level": "HIGH",
                         *         "reasons": [
                         *           {
                         *             "code": "PREFIX_VELOCITY",
                         *             "detail": "5 or more messages to numbers with this prefix in the last 10 minutes"
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                            risk: {
                                score: number;
                                level: string;
                                reasons: {
                                    code: string;
                                    detail: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sms/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one SMS message */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "sms_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "to": "+14155550123",
                         *       "status": "queued",
                         *       "segments": 1,
                         *       "charge": {
                         *         "currency": "USD",
                         *         "amount": "10.00"
                         *       },
                         *       "reason": {
                         *         "code": "123456",
                         *         "message": "example"
                         *       },
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["SmsMessage"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/verify/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a one-time code by email or SMS
         * @description Creates a code (codeLength 4 to 8 digits, default 6; expiresIn 60 to 1800 s, default 600) and sends it. email (default): `to` an email address; from on a verified domain of the team (default no-reply@ its first verified domain); the built-in message or templateId (a template using {{code}}, {{appName}}, {{expiresMinutes}}). sms: `to` E.164, appName required, charged to the wallet (402 when it cannot pay, nothing sent); from, subject and templateId answer 400. Every request is scored for risk first: HIGH answers 422 RISK_REFUSED with `risk` and the id of the stored refusal (no code exists). 429 past 5 codes per recipient per 10 minutes (also per client IP and number prefix), with Retry-After.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "to": "ada@example.com",
                     *       "channel": "email",
                     *       "appName": "Acme"
                     *     }
                     */
                    "application/json": {
                        /** @description 3 to 320 characters: an email address, or for channel sms an E.164 number */
                        to: string;
                        /**
                         * @default email
                         * @enum {string}
                         */
                        channel?: "email" | "sms";
                        /** @description sms only; at most 11 characters */
                        senderId?: string;
                        /** @description email only; `address` or `Name <address>` on a verified domain of the team; default no-reply@ the team's first verified domain */
                        from?: string;
                        /** @description at most 60 characters; default the team name; required for sms */
                        appName?: string;
                        /** @default 6 */
                        codeLength?: number;
                        /**
                         * @description seconds, 60 to 1800 (default 600)
                         * @default 600
                         */
                        expiresIn?: number;
                        /** @description email only; uses {{code}}, {{appName}}, {{expiresMinutes}} */
                        templateId?: string;
                        /** @description email only; default `{{appName}} verification code: {{code}}` */
                        subject?: string;
                        /** @description the end user's IP address, for risk scoring; only a keyed hash is stored */
                        clientIp?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "ver_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "to": "+14155550123",
                         *       "status": "pending",
                         *       "expiresAt": "2026-01-15T09:30:00.000Z",
                         *       "attemptsRemaining": 1,
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "channel": "email",
                         *       "providerMessageId": null,
                         *       "deliveryStatus": "queued",
                         *       "deliveryReason": null,
                         *       "risk": {
                         *         "score": 12,
                         *         "level": "LOW",
                         *         "reasons": [
                         *           {
                         *             "code": "123456",
                         *             "detail": "example"
                         *           }
                         *         ]
                         *       },
                         *       "verified": true,
                         *       "reason": "wrong_code",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Verification"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "INSUFFICIENT_BALANCE",
                         *         "message": "The wallet is empty: top it up first"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RISK_REFUSED",
                         *         "message": "Refused by risk scoring (score 70): 5 or more messages to numbers with this prefix in the last 10 minutes"
                         *       },
                         *       "risk": {
                         *         "score": 70,
                         *         "level": "HIGH",
                         *         "reasons": [
                         *           {
                         *             "code": "PREFIX_VELOCITY",
                         *             "detail": "5 or more messages to numbers with this prefix in the last 10 minutes"
                         *           }
                         *         ]
                         *       },
                         *       "id": "ver_01kf0m3q7r9t5v6w8y0z1a2b3c"
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                            risk: {
                                /** @description summed signal weights, capped at 100 */
                                score: number;
                                /** @enum {string} */
                                level: "LOW" | "MEDIUM" | "HIGH";
                                reasons: {
                                    code: string;
                                    detail: string;
                                }[];
                            };
                            /** @description the refused verification; GET /v1/verify/{id} shows the signals that fired */
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/verify/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the code a user typed
         * @description In order: refused → reason refused; verified → already_used; past expiresAt → expired; no attempts left → too_many_attempts; wrong → wrong_code and one attempt fewer (5 in all; status failed at zero); right → verified. Only a wrong guess costs an attempt.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "ver_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *       "code": "123456"
                     *     }
                     */
                    "application/json": {
                        id: string;
                        /** @description the code the user typed */
                        code: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "ver_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "to": "+14155550123",
                         *       "status": "pending",
                         *       "expiresAt": "2026-01-15T09:30:00.000Z",
                         *       "attemptsRemaining": 1,
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "channel": "email",
                         *       "providerMessageId": null,
                         *       "deliveryStatus": "queued",
                         *       "deliveryReason": null,
                         *       "risk": {
                         *         "score": 12,
                         *         "level": "LOW",
                         *         "reasons": [
                         *           {
                         *             "code": "123456",
                         *             "detail": "example"
                         *           }
                         *         ]
                         *       },
                         *       "verified": true,
                         *       "reason": "wrong_code",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Verification"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/verify/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a verification without changing it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "ver_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "to": "+14155550123",
                         *       "status": "pending",
                         *       "expiresAt": "2026-01-15T09:30:00.000Z",
                         *       "attemptsRemaining": 1,
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "channel": "email",
                         *       "providerMessageId": null,
                         *       "deliveryStatus": "queued",
                         *       "deliveryReason": null,
                         *       "risk": {
                         *         "score": 12,
                         *         "level": "LOW",
                         *         "reasons": [
                         *           {
                         *             "code": "123456",
                         *             "detail": "example"
                         *           }
                         *         ]
                         *       },
                         *       "verified": true,
                         *       "reason": "wrong_code",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Verification"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/journeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List journeys, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "name": "Onboarding",
                         *         "status": "DRAFT",
                         *         "triggerType": "CONTACT_ADDED",
                         *         "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "exitWhenLeavesSegment": true,
                         *         "steps": [
                         *           {
                         *             "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *             "type": "EMAIL",
                         *             "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *             "from": "Acme <hello@example.com>",
                         *             "subject": "Welcome to Acme"
                         *           }
                         *         ],
                         *         "stats": {
                         *           "enrolled": 1,
                         *           "active": 1,
                         *           "completed": 1,
                         *           "exited": 1,
                         *           "failed": 1,
                         *           "sentByStep": {
                         *             "key": 1
                         *           }
                         *         },
                         *         "createdAt": "2026-01-15T09:30:00.000Z",
                         *         "updatedAt": "2026-01-15T09:30:00.000Z"
                         *       }
                         *     ]
                         */
                        "application/json": components["schemas"]["Journey"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a journey (status DRAFT)
         * @description steps: 1 to 50, run in order, ids unique. `{id, type: "EMAIL", templateId, from, subject?}` sends the template to the contact with its fields and properties as variables ({{email}}, {{firstName}}, {{lastName}}, each property by its key); `{id, type: "WAIT", seconds}` waits 1 to 31536000 seconds. The book, segment (of that book) and templates must be the team's; from on a verified domain.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Onboarding",
                     *       "triggerType": "CONTACT_ADDED",
                     *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *       "steps": [
                     *         {
                     *           "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *           "type": "EMAIL",
                     *           "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *           "from": "Acme <hello@example.com>"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description at most 200 characters */
                        name: string;
                        /**
                         * @description CONTACT_ADDED: every contact added to the book while ACTIVE
                         * @enum {string}
                         */
                        triggerType: "CONTACT_ADDED" | "API";
                        contactBookId: string;
                        /** @description only contacts in this segment of the book are enrolled */
                        segmentId?: string | null;
                        /**
                         * @description a contact who stops matching the segment leaves before its next email
                         * @default false
                         */
                        exitWhenLeavesSegment?: boolean;
                        /** @description 1 to 50 steps run in order, each with an id unique in the journey */
                        steps: ({
                            /** @description unique in the journey, 1 to 64 characters */
                            id: string;
                            /** @enum {string} */
                            type: "EMAIL";
                            /** @description a template of the team; its html is the email's body */
                            templateId: string;
                            /** @description `address` or `Name <address>`, on a verified sending domain of the team */
                            from: string;
                            /** @description overrides the template's subject; may use the contact's variables */
                            subject?: string;
                        } | {
                            /** @description unique in the journey, 1 to 64 characters */
                            id: string;
                            /** @enum {string} */
                            type: "WAIT";
                            /** @description 1 to 31536000 (365 days) */
                            seconds: number;
                        })[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Onboarding",
                         *       "status": "DRAFT",
                         *       "triggerType": "CONTACT_ADDED",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "exitWhenLeavesSegment": true,
                         *       "steps": [
                         *         {
                         *           "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "type": "EMAIL",
                         *           "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "from": "Acme <hello@example.com>",
                         *           "subject": "Welcome to Acme"
                         *         }
                         *       ],
                         *       "stats": {
                         *         "enrolled": 1,
                         *         "active": 1,
                         *         "completed": 1,
                         *         "exited": 1,
                         *         "failed": 1,
                         *         "sentByStep": {
                         *           "key": 1
                         *         }
                         *       },
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Journey"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/journeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one journey with its stats */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Onboarding",
                         *       "status": "DRAFT",
                         *       "triggerType": "CONTACT_ADDED",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "exitWhenLeavesSegment": true,
                         *       "steps": [
                         *         {
                         *           "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "type": "EMAIL",
                         *           "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "from": "Acme <hello@example.com>",
                         *           "subject": "Welcome to Acme"
                         *         }
                         *       ],
                         *       "stats": {
                         *         "enrolled": 1,
                         *         "active": 1,
                         *         "completed": 1,
                         *         "exited": 1,
                         *         "failed": 1,
                         *         "sentByStep": {
                         *           "key": 1
                         *         }
                         *       },
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Journey"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a DRAFT or ARCHIVED journey and its runs */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a journey
         * @description Any of the create fields; steps only while DRAFT or PAUSED; an ARCHIVED journey cannot change. steps: 1 to 50, run in order, ids unique. `{id, type: "EMAIL", templateId, from, subject?}` sends the template to the contact with its fields and properties as variables ({{email}}, {{firstName}}, {{lastName}}, each property by its key); `{id, type: "WAIT", seconds}` waits 1 to 31536000 seconds.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Onboarding",
                     *       "triggerType": "CONTACT_ADDED",
                     *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *       "exitWhenLeavesSegment": true,
                     *       "steps": [
                     *         {
                     *           "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *           "type": "EMAIL",
                     *           "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *           "from": "Acme <hello@example.com>"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description at most 200 characters */
                        name?: string;
                        /**
                         * @description CONTACT_ADDED: every contact added to the book while ACTIVE
                         * @enum {string}
                         */
                        triggerType?: "CONTACT_ADDED" | "API";
                        contactBookId?: string;
                        /** @description only contacts in this segment of the book are enrolled */
                        segmentId?: string | null;
                        /** @description a contact who stops matching the segment leaves before its next email */
                        exitWhenLeavesSegment?: boolean;
                        /** @description 1 to 50 steps run in order, each with an id unique in the journey */
                        steps?: ({
                            /** @description unique in the journey, 1 to 64 characters */
                            id: string;
                            /** @enum {string} */
                            type: "EMAIL";
                            /** @description a template of the team; its html is the email's body */
                            templateId: string;
                            /** @description `address` or `Name <address>`, on a verified sending domain of the team */
                            from: string;
                            /** @description overrides the template's subject; may use the contact's variables */
                            subject?: string;
                        } | {
                            /** @description unique in the journey, 1 to 64 characters */
                            id: string;
                            /** @enum {string} */
                            type: "WAIT";
                            /** @description 1 to 31536000 (365 days) */
                            seconds: number;
                        })[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Onboarding",
                         *       "status": "DRAFT",
                         *       "triggerType": "CONTACT_ADDED",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "exitWhenLeavesSegment": true,
                         *       "steps": [
                         *         {
                         *           "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "type": "EMAIL",
                         *           "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "from": "Acme <hello@example.com>",
                         *           "subject": "Welcome to Acme"
                         *         }
                         *       ],
                         *       "stats": {
                         *         "enrolled": 1,
                         *         "active": 1,
                         *         "completed": 1,
                         *         "exited": 1,
                         *         "failed": 1,
                         *         "sentByStep": {
                         *           "key": 1
                         *         }
                         *       },
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Journey"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/journeys/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate, pause or archive a journey
         * @description DRAFT → ACTIVE or ARCHIVED; ACTIVE ⇄ PAUSED; ACTIVE or PAUSED → ARCHIVED (every active run exits with JOURNEY_ARCHIVED). ARCHIVED is final (400). The status it already has: no change.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "status": "ACTIVE"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        status: "ACTIVE" | "PAUSED" | "ARCHIVED";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Onboarding",
                         *       "status": "DRAFT",
                         *       "triggerType": "CONTACT_ADDED",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "exitWhenLeavesSegment": true,
                         *       "steps": [
                         *         {
                         *           "id": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "type": "EMAIL",
                         *           "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "from": "Acme <hello@example.com>",
                         *           "subject": "Welcome to Acme"
                         *         }
                         *       ],
                         *       "stats": {
                         *         "enrolled": 1,
                         *         "active": 1,
                         *         "completed": 1,
                         *         "exited": 1,
                         *         "failed": 1,
                         *         "sentByStep": {
                         *           "key": 1
                         *         }
                         *       },
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Journey"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/journeys/{id}/enroll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enrol a contact into a journey
         * @description Give contactId or email, not both. By email the contact is found in the journey's book, or added to it. 400: neither or both; a journey without a book for an email; the book no longer exists; double opt-in not confirmed; a DRAFT or ARCHIVED journey. 409 NOT_UNIQUE: the contact already has a run; 409 NOT_IN_SEGMENT: the contact is outside the journey segment (an email enrolment still adds the address to the book).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            /** @description give contactId or email, not both */
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "email": "ada@example.com"
                     *     }
                     */
                    "application/json": {
                        contactId?: string;
                        email?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "jrun_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "journeyId": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "contactId": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "status": "ACTIVE",
                         *       "currentStepIndex": 1,
                         *       "nextRunAt": "2026-01-15T09:30:00.000Z",
                         *       "exitReason": "UNSUBSCRIBED",
                         *       "history": [
                         *         {
                         *           "at": "example",
                         *           "type": "example",
                         *           "stepId": "example",
                         *           "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "until": "example",
                         *           "note": "example"
                         *         }
                         *       ],
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["JourneyRun"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/journeys/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a journey's runs, newest first
         * @description limit 1 to 100 (default 50); status filters; pass nextCursor back as cursor.
         */
        get: {
            parameters: {
                query?: {
                    status?: "ACTIVE" | "COMPLETED" | "EXITED" | "FAILED";
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "jrun_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "journeyId": "jrn_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "contactId": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "status": "ACTIVE",
                         *           "currentStepIndex": 1,
                         *           "nextRunAt": "2026-01-15T09:30:00.000Z",
                         *           "exitReason": "UNSUBSCRIBED",
                         *           "history": [
                         *             {
                         *               "at": "example",
                         *               "type": "example",
                         *               "stepId": "example",
                         *               "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *               "until": "example",
                         *               "note": "example"
                         *             }
                         *           ],
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["JourneyRun"][];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List campaigns, newest first, 30 a page */
        get: {
            parameters: {
                query?: {
                    /** @description page number from 1, 30 campaigns a page */
                    page?: number;
                    status?: "DRAFT" | "SCHEDULED" | "RUNNING" | "PAUSED" | "SENT";
                    /** @description in the name or subject, ignoring case */
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "campaigns": [
                         *         {
                         *           "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "name": "Acme",
                         *           "from": "Acme <hello@example.com>",
                         *           "subject": "Welcome to Acme",
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z",
                         *           "status": "DRAFT",
                         *           "scheduledAt": "2026-01-15T09:30:00.000Z",
                         *           "total": 1,
                         *           "sent": 120,
                         *           "delivered": 118,
                         *           "unsubscribed": 1
                         *         }
                         *       ],
                         *       "totalPage": 1
                         *     }
                         */
                        "application/json": {
                            campaigns: {
                                id: string;
                                name: string;
                                from: string;
                                subject: string;
                                createdAt: string;
                                updatedAt: string;
                                /** @enum {string} */
                                status: "DRAFT" | "SCHEDULED" | "RUNNING" | "PAUSED" | "SENT";
                                scheduledAt: string | null;
                                total: number;
                                sent: number;
                                delivered: number;
                                unsubscribed: number;
                            }[];
                            totalPage: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a campaign (DRAFT; scheduled at once with sendNow or scheduledAt)
         * @description The from address on a verified domain of the team; the contact book, segment (of that book) and template must be the team's. The body (html or templateId) must link to {{unsubscribeUrl}} before it is scheduled.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Acme",
                     *       "from": "Acme <hello@example.com>",
                     *       "subject": "Welcome to Acme",
                     *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c"
                     *     }
                     */
                    "application/json": {
                        name: string;
                        /** @description `address` or `Name <address>`, on a verified domain of the team */
                        from: string;
                        subject: string;
                        contactBookId: string;
                        previewText?: string;
                        html?: string;
                        /** @description useSend's editor document (a JSON string of its TipTap tree), rendered to html when stored */
                        content?: string;
                        /** @description an address, or up to 50 */
                        replyTo?: string | string[];
                        /** @description an address, or up to 50 */
                        cc?: string | string[];
                        /** @description an address, or up to 50 */
                        bcc?: string | string[];
                        /** @description emails per batch window, 1 to 100,000 */
                        batchSize?: number;
                        /** @description minutes between batches, 0 (as fast as delivery allows) to 1440 */
                        batchWindowMinutes?: number;
                        /** @description Herald: only the contacts of the book this segment matches */
                        segmentId?: string;
                        /** @description Herald: the body is this template's. html, content and templateId are one body: give one (a change replaces the others) */
                        templateId?: string;
                        /** @description schedule it at once, as POST …/schedule with no time */
                        sendNow?: boolean;
                        /**
                         * Format: date-time
                         * @description schedule it for this time
                         */
                        scheduledAt?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Acme",
                         *       "from": "Acme <hello@example.com>",
                         *       "subject": "Welcome to Acme",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "status": "DRAFT",
                         *       "scheduledAt": "2026-01-15T09:30:00.000Z",
                         *       "total": 1,
                         *       "sent": 120,
                         *       "delivered": 118,
                         *       "unsubscribed": 1,
                         *       "previewText": "Your account is ready",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "content": null,
                         *       "batchSize": 1,
                         *       "batchWindowMinutes": 1,
                         *       "opened": 64,
                         *       "clicked": 21,
                         *       "bounced": 2,
                         *       "hardBounced": 1,
                         *       "complained": 0,
                         *       "replyTo": [
                         *         "support@example.com"
                         *       ],
                         *       "cc": [
                         *         "grace@example.com"
                         *       ],
                         *       "bcc": [
                         *         "audit@example.com"
                         *       ],
                         *       "pausedReason": "MANUAL",
                         *       "startedAt": "2026-01-15T09:30:00.000Z",
                         *       "finishedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Campaign"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/campaigns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a campaign */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Acme",
                         *       "from": "Acme <hello@example.com>",
                         *       "subject": "Welcome to Acme",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "status": "DRAFT",
                         *       "scheduledAt": "2026-01-15T09:30:00.000Z",
                         *       "total": 1,
                         *       "sent": 120,
                         *       "delivered": 118,
                         *       "unsubscribed": 1,
                         *       "previewText": "Your account is ready",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "content": null,
                         *       "batchSize": 1,
                         *       "batchWindowMinutes": 1,
                         *       "opened": 64,
                         *       "clicked": 21,
                         *       "bounced": 2,
                         *       "hardBounced": 1,
                         *       "complained": 0,
                         *       "replyTo": [
                         *         "support@example.com"
                         *       ],
                         *       "cc": [
                         *         "grace@example.com"
                         *       ],
                         *       "bcc": [
                         *         "audit@example.com"
                         *       ],
                         *       "pausedReason": "MANUAL",
                         *       "startedAt": "2026-01-15T09:30:00.000Z",
                         *       "finishedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Campaign"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a campaign
         * @description A RUNNING campaign is refused (400): pause it first.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Acme",
                         *       "from": "Acme <hello@example.com>",
                         *       "subject": "Welcome to Acme",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "status": "DRAFT",
                         *       "scheduledAt": "2026-01-15T09:30:00.000Z",
                         *       "total": 1,
                         *       "sent": 120,
                         *       "delivered": 118,
                         *       "unsubscribed": 1,
                         *       "previewText": "Your account is ready",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "content": null,
                         *       "batchSize": 1,
                         *       "batchWindowMinutes": 1,
                         *       "opened": 64,
                         *       "clicked": 21,
                         *       "bounced": 2,
                         *       "hardBounced": 1,
                         *       "complained": 0,
                         *       "replyTo": [
                         *         "support@example.com"
                         *       ],
                         *       "cc": [
                         *         "grace@example.com"
                         *       ],
                         *       "bcc": [
                         *         "audit@example.com"
                         *       ],
                         *       "pausedReason": "MANUAL",
                         *       "startedAt": "2026-01-15T09:30:00.000Z",
                         *       "finishedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Campaign"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a DRAFT campaign (Herald)
         * @description Fields left out are unchanged; a campaign that is not DRAFT answers 400.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Acme",
                     *       "from": "Acme <hello@example.com>",
                     *       "subject": "Welcome to Acme",
                     *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *       "previewText": "Your account is ready",
                     *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                     *       "content": "example",
                     *       "replyTo": "support@example.com",
                     *       "cc": "grace@example.com",
                     *       "bcc": "audit@example.com",
                     *       "batchSize": 1,
                     *       "batchWindowMinutes": 1,
                     *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                     *       "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c"
                     *     }
                     */
                    "application/json": {
                        name?: string;
                        /** @description `address` or `Name <address>`, on a verified domain of the team */
                        from?: string;
                        subject?: string;
                        contactBookId?: string;
                        previewText?: string;
                        html?: string;
                        /** @description useSend's editor document (a JSON string of its TipTap tree), rendered to html when stored */
                        content?: string;
                        /** @description an address, or up to 50 */
                        replyTo?: string | string[];
                        /** @description an address, or up to 50 */
                        cc?: string | string[];
                        /** @description an address, or up to 50 */
                        bcc?: string | string[];
                        /** @description emails per batch window, 1 to 100,000 */
                        batchSize?: number;
                        /** @description minutes between batches, 0 (as fast as delivery allows) to 1440 */
                        batchWindowMinutes?: number;
                        /** @description Herald: only the contacts of the book this segment matches */
                        segmentId?: string;
                        /** @description Herald: the body is this template's. html, content and templateId are one body: give one (a change replaces the others) */
                        templateId?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Acme",
                         *       "from": "Acme <hello@example.com>",
                         *       "subject": "Welcome to Acme",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z",
                         *       "status": "DRAFT",
                         *       "scheduledAt": "2026-01-15T09:30:00.000Z",
                         *       "total": 1,
                         *       "sent": 120,
                         *       "delivered": 118,
                         *       "unsubscribed": 1,
                         *       "previewText": "Your account is ready",
                         *       "contactBookId": "cb_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "segmentId": "sg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "templateId": "tpl_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "content": null,
                         *       "batchSize": 1,
                         *       "batchWindowMinutes": 1,
                         *       "opened": 64,
                         *       "clicked": 21,
                         *       "bounced": 2,
                         *       "hardBounced": 1,
                         *       "complained": 0,
                         *       "replyTo": [
                         *         "support@example.com"
                         *       ],
                         *       "cc": [
                         *         "grace@example.com"
                         *       ],
                         *       "bcc": [
                         *         "audit@example.com"
                         *       ],
                         *       "pausedReason": "MANUAL",
                         *       "startedAt": "2026-01-15T09:30:00.000Z",
                         *       "finishedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["Campaign"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/campaigns/{id}/recipients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A campaign's recipients and their emails, newest first (Herald)
         * @description limit 1 to 100 (default 50); status filters by the email's latestStatus; pass nextCursor back as cursor.
         */
        get: {
            parameters: {
                query?: {
                    /** @description the email's latestStatus */
                    status?: "SCHEDULED" | "QUEUED" | "SENT" | "DELIVERY_DELAYED" | "BOUNCED" | "REJECTED" | "RENDERING_FAILURE" | "DELIVERED" | "OPENED" | "CLICKED" | "COMPLAINED" | "FAILED" | "CANCELLED" | "SUPPRESSED";
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "contactId": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "email": "ada@example.com",
                         *           "status": "SCHEDULED",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            data: {
                                emailId: string;
                                contactId: string;
                                email: string;
                                /** @enum {string} */
                                status: "SCHEDULED" | "QUEUED" | "SENT" | "DELIVERY_DELAYED" | "BOUNCED" | "REJECTED" | "RENDERING_FAILURE" | "DELIVERED" | "OPENED" | "CLICKED" | "COMPLAINED" | "FAILED" | "CANCELLED" | "SUPPRESSED";
                                updatedAt: string;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/campaigns/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send test copies of a campaign (Herald)
         * @description One copy to each of 1 to 5 addresses, "[Test]" before the subject, header X-Herald-Test; not a campaign email (counted in no statistic).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "to": [
                     *         "ada@example.com"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description 1 to 5 addresses, each sent one copy */
                        to: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "to": "ada@example.com"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: {
                                emailId: string;
                                to: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/campaigns/{id}/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedule a campaign
         * @description A DRAFT campaign, or a SCHEDULED one moved to another time; no scheduledAt: now. 400 once it has started.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "scheduledAt": "2026-01-15T09:30:00.000Z",
                     *       "batchSize": 1
                     *     }
                     */
                    "application/json": {
                        /**
                         * Format: date-time
                         * @description when to start; now when left out
                         */
                        scheduledAt?: string;
                        /** @description emails per batch window, 1 to 100,000 */
                        batchSize?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "success": true
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/campaigns/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a campaign
         * @description A SCHEDULED or RUNNING campaign (or one paused for the quota).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "success": true
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/campaigns/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused campaign
         * @description It goes on where it stopped (or waits for its time if it had not started).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "success": true
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inbound/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List messages received by the team's inboxes, newest first (spam left out)
         * @description limit 1 to 100 (default 25); inbox: an inbox id (or its address); pass nextCursor back as cursor.
         */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                    /** @description an inbox id (or its address): only its messages */
                    inbox?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "messageId": "inmsg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "conversationId": "example",
                         *           "inbox": {
                         *             "id": "inmsg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *             "name": "Acme"
                         *           },
                         *           "from": "Acme <hello@example.com>",
                         *           "to": [
                         *             "ada@example.com"
                         *           ],
                         *           "cc": [
                         *             "grace@example.com"
                         *           ],
                         *           "subject": "Welcome to Acme",
                         *           "text": "Hello Ada, welcome aboard.",
                         *           "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *           "strippedText": "Thanks, that works for me.",
                         *           "attachments": [
                         *             {
                         *               "filename": "invoice.pdf",
                         *               "contentType": "application/pdf",
                         *               "size": 20480,
                         *               "url": "https://example.com/webhooks/herald"
                         *             }
                         *           ],
                         *           "contactId": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "inReplyToEmailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "spamVerdict": "clean",
                         *           "receivedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["InboundMessage"][];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inbound/messages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one received message (spam included) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "messageId": "inmsg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "conversationId": "example",
                         *       "inbox": {
                         *         "id": "inmsg_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "name": "Acme"
                         *       },
                         *       "from": "Acme <hello@example.com>",
                         *       "to": [
                         *         "ada@example.com"
                         *       ],
                         *       "cc": [
                         *         "grace@example.com"
                         *       ],
                         *       "subject": "Welcome to Acme",
                         *       "text": "Hello Ada, welcome aboard.",
                         *       "html": "<p>Hello {{firstName}}, welcome aboard.</p>",
                         *       "strippedText": "Thanks, that works for me.",
                         *       "attachments": [
                         *         {
                         *           "filename": "invoice.pdf",
                         *           "contentType": "application/pdf",
                         *           "size": 20480,
                         *           "url": "https://example.com/webhooks/herald"
                         *         }
                         *       ],
                         *       "contactId": "ct_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "inReplyToEmailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "spamVerdict": "clean",
                         *       "receivedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": components["schemas"]["InboundMessage"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inbound/messages/{id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the original message as received (.eml)
         * @description The bytes exactly as received, as message/rfc822. Kept HERALD_INBOUND_RETENTION_DAYS (30 by default); after that 422.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNPROCESSABLE_ENTITY",
                         *         "message": "The request cannot be processed"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List wallet transactions, newest first
         * @description Signed amounts with the balance after each row. type: one row kind; from: inclusive, to: exclusive (ISO 8601); limit 1 to 100 (default 20); pass nextCursor back as cursor with the same filters (a cursor of another list, filter or team is 400). A team with no wallet gets {currency: null, data: []}.
         */
        get: {
            parameters: {
                query?: {
                    /** @description one row kind */
                    type?: "TOP_UP" | "SMS_CHARGE" | "SMS_RELEASE" | "SENDER_ID_FEE" | "SENDER_ID_REFUND" | "ADJUSTMENT" | "REVERSAL" | "PRO_MONTH" | "PRO_UNITS";
                    /** @description inclusive, ISO 8601 */
                    from?: string;
                    /** @description exclusive, ISO 8601 */
                    to?: string;
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "currency": "USD",
                         *       "data": [
                         *         {
                         *           "id": "wtx_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "type": "TOP_UP",
                         *           "amountMinor": 1000,
                         *           "amountFormatted": "$10.00",
                         *           "balanceAfterMinor": 2500,
                         *           "balanceAfterFormatted": "$25.00",
                         *           "reference": "HRD-000001",
                         *           "customerDescription": null,
                         *           "receiptReference": "HRD-000001",
                         *           "createdAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            currency: string | null;
                            data: {
                                id: string;
                                /** @description row kind: TOP_UP, SMS_CHARGE, SMS_RELEASE, SENDER_ID_FEE, SENDER_ID_REFUND, ADJUSTMENT, REVERSAL, PRO_MONTH, PRO_UNITS */
                                type: string;
                                /** @description signed: positive into the wallet, negative out */
                                amountMinor: number;
                                amountFormatted: string;
                                balanceAfterMinor: number;
                                balanceAfterFormatted: string;
                                reference: string;
                                customerDescription: string | null;
                                /** @description set when the row has a receipt */
                                receiptReference: string | null;
                                createdAt: string;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNPROCESSABLE_ENTITY",
                         *         "message": "The request cannot be processed"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "SERVICE_UNAVAILABLE",
                         *         "message": "The card processor cannot be reached; retry shortly"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List receipts, newest first
         * @description type: one row kind; from: inclusive, to: exclusive (ISO 8601); limit 1 to 100 (default 20); pass nextCursor back as cursor with the same filters (a cursor of another list, filter or team is 400). A page looks at 500 ledger rows at most, so it can hold fewer receipts than limit and still have a nextCursor.
         */
        get: {
            parameters: {
                query?: {
                    /** @description one row kind */
                    type?: "TOP_UP" | "SMS_CHARGE" | "SMS_RELEASE" | "SENDER_ID_FEE" | "SENDER_ID_REFUND" | "ADJUSTMENT" | "REVERSAL" | "PRO_MONTH" | "PRO_UNITS";
                    /** @description inclusive, ISO 8601 */
                    from?: string;
                    /** @description exclusive, ISO 8601 */
                    to?: string;
                    cursor?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "currency": "USD",
                         *       "data": [
                         *         {
                         *           "invoiceNumber": "HRD-000001",
                         *           "reference": "HRD-000001",
                         *           "type": "TOP_UP",
                         *           "title": "example",
                         *           "description": "Example",
                         *           "amountMinor": 1000,
                         *           "amountFormatted": "$10.00",
                         *           "direction": "in",
                         *           "balanceAfterMinor": 2500,
                         *           "balanceAfterFormatted": "$25.00",
                         *           "currency": "USD",
                         *           "createdAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            currency: string | null;
                            data: components["schemas"]["Receipt"][];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNPROCESSABLE_ENTITY",
                         *         "message": "The request cannot be processed"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "SERVICE_UNAVAILABLE",
                         *         "message": "The card processor cannot be reached; retry shortly"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/receipts/{reference}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one receipt
         * @description reference: a transaction's receiptReference. 404 for another team's reference and for a row without a receipt.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    reference: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "invoiceNumber": "HRD-000001",
                         *       "reference": "HRD-000001",
                         *       "type": "TOP_UP",
                         *       "title": "example",
                         *       "description": "Example",
                         *       "amountMinor": 1000,
                         *       "amountFormatted": "$10.00",
                         *       "direction": "in",
                         *       "balanceAfterMinor": 2500,
                         *       "balanceAfterFormatted": "$25.00",
                         *       "currency": "USD",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "teamName": "Acme"
                         *     }
                         */
                        "application/json": {
                            /** @description set on a Pro month paid from the wallet */
                            invoiceNumber: string | null;
                            reference: string;
                            type: string;
                            title: string;
                            description: string;
                            /** @description negative for money that left the wallet, positive for money that entered it */
                            amountMinor: number;
                            /** @description without sign */
                            amountFormatted: string;
                            /** @enum {string} */
                            direction: "in" | "out";
                            balanceAfterMinor: number;
                            balanceAfterFormatted: string;
                            currency: string;
                            createdAt: string;
                            teamName: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNPROCESSABLE_ENTITY",
                         *         "message": "The request cannot be processed"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "SERVICE_UNAVAILABLE",
                         *         "message": "The card processor cannot be reached; retry shortly"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read usage against the plan
         * @description Calendar month (UTC) and today from counters; limits of the plan enforced today (-1 and unlimited where there is none). textSpendFormatted only for a key made by a team admin and not limited to one domain.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "period": {
                         *         "startDay": "example",
                         *         "endDay": null,
                         *         "label": "example"
                         *       },
                         *       "plan": {
                         *         "key": "plan",
                         *         "effectiveKey": "example",
                         *         "displayName": "example",
                         *         "monthlyUsd": 1,
                         *         "status": null,
                         *         "isEntitled": true
                         *       },
                         *       "emails": {
                         *         "marketingThisMonth": 1,
                         *         "transactionalThisMonth": 1,
                         *         "totalThisMonth": 1,
                         *         "totalToday": 1
                         *       },
                         *       "sending": {
                         *         "monthly": {
                         *           "used": 1,
                         *           "limit": 1,
                         *           "unlimited": true,
                         *           "percentUsed": 1
                         *         },
                         *         "daily": {
                         *           "used": 1,
                         *           "limit": 1,
                         *           "unlimited": true,
                         *           "percentUsed": 1
                         *         }
                         *       },
                         *       "units": {
                         *         "included": 1,
                         *         "used": 1,
                         *         "overage": 1,
                         *         "overageUsd": 1,
                         *         "overageMinor": 1,
                         *         "overageFormatted": "example",
                         *         "unitPriceFormatted": null,
                         *         "note": "example"
                         *       },
                         *       "billing": {
                         *         "method": "example",
                         *         "currency": "USD",
                         *         "unitPriceMicro": 1
                         *       },
                         *       "resources": {
                         *         "domains": {
                         *           "used": 1,
                         *           "limit": 1,
                         *           "unlimited": true,
                         *           "percentUsed": 1
                         *         },
                         *         "contactBooks": {
                         *           "used": 1,
                         *           "limit": 1,
                         *           "unlimited": true,
                         *           "percentUsed": 1
                         *         },
                         *         "teamMembers": {
                         *           "used": 1,
                         *           "limit": 1,
                         *           "unlimited": true,
                         *           "percentUsed": 1
                         *         },
                         *         "webhooks": {
                         *           "used": 1,
                         *           "limit": 1,
                         *           "unlimited": true,
                         *           "percentUsed": 1
                         *         }
                         *       },
                         *       "apiRateLimit": 10,
                         *       "thisMonth": {
                         *         "emails": {
                         *           "used": 1,
                         *           "limit": 1,
                         *           "unlimited": true,
                         *           "percent": 1
                         *         },
                         *         "texts": 1,
                         *         "codes": 1,
                         *         "textSpendFormatted": null
                         *       }
                         *     }
                         */
                        "application/json": components["schemas"]["BillingUsage"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNPROCESSABLE_ENTITY",
                         *         "message": "The request cannot be processed"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "SERVICE_UNAVAILABLE",
                         *         "message": "The card processor cannot be reached; retry shortly"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the price list in the team billing currency
         * @description Prices per message in millionths of the major unit (a null cell: on request); pro.configured is false for a currency not priced yet.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "currency": "USD",
                         *       "channels": [
                         *         {
                         *           "channel": "example",
                         *           "label": "example",
                         *           "tiers": [
                         *             {
                         *               "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *               "position": 1,
                         *               "name": "Acme",
                         *               "minVolume": 1,
                         *               "maxVolume": 1,
                         *               "recommended": true,
                         *               "volumeLabel": "example"
                         *             }
                         *           ],
                         *           "lines": [
                         *             {
                         *               "productLine": "example",
                         *               "label": "example",
                         *               "monthlyFee": true,
                         *               "cells": [
                         *                 {
                         *                   "tierId": "example",
                         *                   "priceMicro": 1,
                         *                   "priceFormatted": null
                         *                 }
                         *               ]
                         *             }
                         *           ]
                         *         }
                         *       ],
                         *       "pro": {
                         *         "currency": "USD",
                         *         "monthlyMinor": 1,
                         *         "monthlyFormatted": null,
                         *         "unitPriceMicro": 1,
                         *         "fixedPrice": true,
                         *         "configured": true
                         *       }
                         *     }
                         */
                        "application/json": components["schemas"]["BillingPriceList"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "SERVICE_UNAVAILABLE",
                         *         "message": "The card processor cannot be reached; retry shortly"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the card processor's invoices, newest first
         * @description The latest 12; empty for a team the card processor never billed. No pay or download link.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "number": null,
                         *           "createdAt": "2026-01-15T09:30:00.000Z",
                         *           "amountDue": 1,
                         *           "amountPaid": 1,
                         *           "currency": "USD",
                         *           "status": null
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["Invoice"][];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "SERVICE_UNAVAILABLE",
                         *         "message": "The card processor cannot be reached; retry shortly"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one invoice of the card processor
         * @description id: the card processor's invoice id (in_…); 400 for anything else, 404 for another customer's.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "number": null,
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "amountDue": 1,
                         *       "amountPaid": 1,
                         *       "currency": "USD",
                         *       "status": null
                         *     }
                         */
                        "application/json": components["schemas"]["Invoice"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "SERVICE_UNAVAILABLE",
                         *         "message": "The card processor cannot be reached; retry shortly"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the plan and how it is paid
         * @description stripe: the card subscription from the card processor for a team billed by card (null otherwise); wallet: the Pro months paid from the wallet; the plan is changed in the dashboard only.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "plan": "pro",
                         *       "isActive": true,
                         *       "billingMethod": "example",
                         *       "stripe": {
                         *         "status": "example",
                         *         "currentPeriodStart": null,
                         *         "currentPeriodEnd": null,
                         *         "cancelAtPeriodEnd": true,
                         *         "cancelAt": "2026-01-15T09:30:00.000Z"
                         *       },
                         *       "wallet": {
                         *         "state": "example",
                         *         "proRenewsAt": "2026-01-15T09:30:00.000Z",
                         *         "graceStartedAt": "2026-01-15T09:30:00.000Z",
                         *         "graceEndsAt": "2026-01-15T09:30:00.000Z",
                         *         "unitsBlocked": true
                         *       },
                         *       "planPayment": {
                         *         "currency": "USD",
                         *         "priceMinor": 1,
                         *         "priceFormatted": "example",
                         *         "priceConfigured": true,
                         *         "fixedPrice": true,
                         *         "walletPaysPlan": true,
                         *         "live": {
                         *           "status": "example",
                         *           "paidVia": "example",
                         *           "periodStart": "example",
                         *           "periodEnd": "example",
                         *           "amountMinor": 1000,
                         *           "amountFormatted": "$10.00",
                         *           "cancelAtPeriodEnd": true,
                         *           "graceEndsAt": "2026-01-15T09:30:00.000Z",
                         *           "invoiceNumber": "HRD-000001",
                         *           "receiptReference": "HRD-000001"
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": components["schemas"]["BillingSubscription"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "FORBIDDEN",
                         *         "message": "This key is limited to another domain and has no access to this one"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "RATE_LIMITED",
                         *         "message": "Rate limit of 10 requests per second exceeded; retry after 1 s"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "SERVICE_UNAVAILABLE",
                         *         "message": "The card processor cannot be reached; retry shortly"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/contact-books/{contactBookId}/contacts/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a batch of contacts into a team's contact book (upsert by email, all or nothing)
         * @description What `herald admin contacts import` sends for each batch of its CSV file. Same rules as POST /v1/contactBooks/{id}/contacts/bulk.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                    contactBookId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "contacts": [
                     *         {
                     *           "email": "ada@example.com"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description 1 to 1000 contacts, the public bulk add's shape */
                        contacts: {
                            /** @description stored trimmed and lower-cased; at most 320 characters */
                            email: string;
                            firstName?: string | null;
                            lastName?: string | null;
                            /** @description map of string to string: at most 100 entries, names 1 to 100 characters, values at most 2000 */
                            properties?: {
                                [key: string]: string;
                            };
                            /** @description default true; ignored when the book uses double opt-in (the contact subscribes by confirming) */
                            subscribed?: boolean;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "count": 1,
                         *       "created": 1,
                         *       "updated": 1
                         *     }
                         */
                        "application/json": {
                            message: string;
                            count: number;
                            created: number;
                            updated: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/suppressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a team's suppressed addresses, newest first
         * @description Cursor-paged: pass back nextCursor; limit 1 to 100 (default 50).
         */
        get: {
            parameters: {
                query?: {
                    /** @description only this address (case does not matter) */
                    email?: string;
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "email": "ada@example.com",
                         *           "reason": "example",
                         *           "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "createdAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ],
                         *       "nextCursor": "eyJsIjoic21zIiwidCI6MiwicCI6WzFdfQ.3q2-7wVh1m0aXk9cQ2Zp4w"
                         *     }
                         */
                        "application/json": {
                            data: {
                                email: string;
                                /** @description HARD_BOUNCE, COMPLAINT, or what another part recorded */
                                reason: string;
                                /** @description the email whose bounce or complaint added the address */
                                emailId: string | null;
                                createdAt: string;
                            }[];
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/suppressions/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one suppressed address */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                    email: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "email": "ada@example.com",
                         *       "reason": "example",
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            email: string;
                            /** @description HARD_BOUNCE, COMPLAINT, or what another part recorded */
                            reason: string;
                            /** @description the email whose bounce or complaint added the address */
                            emailId: string | null;
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove an address from a team's suppression list; sending to it is allowed again */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                    email: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "email": "ada@example.com",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            email: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/sms/callback-urls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The delivery-report URLs to give each SMS provider */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "twilio": "example",
                         *       "africastalking": "example",
                         *       "termii": "example"
                         *     }
                         */
                        "application/json": {
                            twilio: string;
                            africastalking: string;
                            termii: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/sms/outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SMS kept by the log provider, newest first */
        get: {
            parameters: {
                query?: {
                    to?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "sms_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "to": "+14155550123",
                         *         "from": "Acme <hello@example.com>",
                         *         "text": "Hello Ada, welcome aboard.",
                         *         "createdAt": "2026-01-15T09:30:00.000Z"
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            to: string;
                            from: string;
                            text: string;
                            createdAt: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/dns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The DNS records of Herald's own mail domain (HERALD_MAIL_DOMAIN)
         * @description Publish them in the zone of HERALD_MAIL_DOMAIN: the DKIM key (derived from HERALD_SECRET) signs the mail every team may send from that domain to its own members; every team domain's SPF includes this domain's.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "mailDomain": "herald.example.com",
                         *       "records": [
                         *         {
                         *           "type": "TXT",
                         *           "name": "herald._domainkey.herald.example.com",
                         *           "value": "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOC…",
                         *           "priority": 1,
                         *           "purpose": "example"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            mailDomain: string;
                            records: {
                                /** @enum {string} */
                                type: "TXT" | "MX";
                                name: string;
                                value: string;
                                priority: number | null;
                                purpose: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/outbox/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One message the log transport stored */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "teamId": 2,
                         *       "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "envelope": {
                         *         "from": "Acme <hello@example.com>",
                         *         "to": [
                         *           "ada@example.com"
                         *         ]
                         *       },
                         *       "subject": "Welcome to Acme",
                         *       "createdAt": "2026-01-15T09:30:00.000Z",
                         *       "raw": "example"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            teamId: number | null;
                            emailId: string | null;
                            envelope: {
                                from: string;
                                to: string[];
                            };
                            subject: string | null;
                            createdAt: string;
                            /** @description the whole message as it would have been sent, DKIM signature included */
                            raw: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Direct-delivery destinations that are backed off, and why */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "destination": "example",
                         *           "paused": true,
                         *           "pausedUntil": "example",
                         *           "connections": 1,
                         *           "openConnections": 1,
                         *           "failures": 1,
                         *           "reason": "example",
                         *           "updatedAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description the MX hosts, in priority order; "(MTA-STS …)" when a policy applies */
                                destination: string;
                                /** @description no new message is offered before pausedUntil */
                                paused: boolean;
                                pausedUntil: string;
                                /** @description the connection limit while it recovers */
                                connections: number;
                                /** @description sessions the deployment holds to it now */
                                openConnections: number;
                                /** @description pauses in a row; each doubles the next */
                                failures: number;
                                /** @description the answer or failure that backed it off */
                                reason: string;
                                updatedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a team's wallet balance */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "currency": "USD",
                         *       "balanceMinor": 2500,
                         *       "balanceFormatted": "$25.00",
                         *       "updatedAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            /** @description null until the first top-up or adjustment opens the wallet */
                            currency: string | null;
                            balanceMinor: number;
                            balanceFormatted: string | null;
                            updatedAt: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/wallet/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a team's wallet ledger, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "currency": "USD",
                         *       "data": [
                         *         {
                         *           "id": "wtx_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *           "type": "TOP_UP",
                         *           "amountMinor": 1000,
                         *           "amountFormatted": "$10.00",
                         *           "balanceAfterMinor": 2500,
                         *           "balanceAfterFormatted": "$25.00",
                         *           "reference": "HRD-000001",
                         *           "customerDescription": null,
                         *           "receiptReference": "HRD-000001",
                         *           "createdAt": "2026-01-15T09:30:00.000Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            currency: string | null;
                            data: {
                                id: string;
                                /** @description row kind: TOP_UP, SMS_CHARGE, SMS_RELEASE, SENDER_ID_FEE, SENDER_ID_REFUND, ADJUSTMENT, REVERSAL, PRO_MONTH, PRO_UNITS */
                                type: string;
                                /** @description signed: positive into the wallet, negative out */
                                amountMinor: number;
                                amountFormatted: string;
                                balanceAfterMinor: number;
                                balanceAfterFormatted: string;
                                reference: string;
                                customerDescription: string | null;
                                /** @description set when the row has a receipt */
                                receiptReference: string | null;
                                createdAt: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/wallet/top-ups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Top up a wallet (idempotent by reference); the row has a receipt */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "amountMinor": 1000
                     *     }
                     */
                    "application/json": {
                        /** @description integer minor units (cents, kobo) of the wallet currency */
                        amountMinor: number;
                        /** @description unique per team: the same reference again returns the first row and adds nothing */
                        reference?: string;
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "type": "TOP_UP",
                         *       "amountMinor": 1000,
                         *       "amountFormatted": "$10.00",
                         *       "balanceAfterMinor": 2500,
                         *       "balanceAfterFormatted": "$25.00",
                         *       "reference": "HRD-000001",
                         *       "customerDescription": null,
                         *       "receiptReference": "HRD-000001",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @description row kind: TOP_UP, SMS_CHARGE, SMS_RELEASE, SENDER_ID_FEE, SENDER_ID_REFUND, ADJUSTMENT, REVERSAL, PRO_MONTH, PRO_UNITS */
                            type: string;
                            /** @description signed: positive into the wallet, negative out */
                            amountMinor: number;
                            amountFormatted: string;
                            balanceAfterMinor: number;
                            balanceAfterFormatted: string;
                            reference: string;
                            customerDescription: string | null;
                            /** @description set when the row has a receipt */
                            receiptReference: string | null;
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/wallet/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Adjust a wallet by a signed amount; a debit below zero is refused (400) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "amountMinor": 1000,
                     *       "description": "Example"
                     *     }
                     */
                    "application/json": {
                        /** @description signed integer minor units: positive credits the wallet, negative debits it */
                        amountMinor: number;
                        description: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "type": "TOP_UP",
                         *       "amountMinor": 1000,
                         *       "amountFormatted": "$10.00",
                         *       "balanceAfterMinor": 2500,
                         *       "balanceAfterFormatted": "$25.00",
                         *       "reference": "HRD-000001",
                         *       "customerDescription": null,
                         *       "receiptReference": "HRD-000001",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @description row kind: TOP_UP, SMS_CHARGE, SMS_RELEASE, SENDER_ID_FEE, SENDER_ID_REFUND, ADJUSTMENT, REVERSAL, PRO_MONTH, PRO_UNITS */
                            type: string;
                            /** @description signed: positive into the wallet, negative out */
                            amountMinor: number;
                            amountFormatted: string;
                            balanceAfterMinor: number;
                            balanceAfterFormatted: string;
                            reference: string;
                            customerDescription: string | null;
                            /** @description set when the row has a receipt */
                            receiptReference: string | null;
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/wallet/reversals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reverse a top-up or adjustment (once: 409 the second time) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "transactionId": "wtx_01kf0m3q7r9t5v6w8y0z1a2b3c"
                     *     }
                     */
                    "application/json": {
                        /** @description a top-up or adjustment of this team */
                        transactionId: string;
                        description?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "type": "TOP_UP",
                         *       "amountMinor": 1000,
                         *       "amountFormatted": "$10.00",
                         *       "balanceAfterMinor": 2500,
                         *       "balanceAfterFormatted": "$25.00",
                         *       "reference": "HRD-000001",
                         *       "customerDescription": null,
                         *       "receiptReference": "HRD-000001",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @description row kind: TOP_UP, SMS_CHARGE, SMS_RELEASE, SENDER_ID_FEE, SENDER_ID_REFUND, ADJUSTMENT, REVERSAL, PRO_MONTH, PRO_UNITS */
                            type: string;
                            /** @description signed: positive into the wallet, negative out */
                            amountMinor: number;
                            amountFormatted: string;
                            balanceAfterMinor: number;
                            balanceAfterFormatted: string;
                            reference: string;
                            customerDescription: string | null;
                            /** @description set when the row has a receipt */
                            receiptReference: string | null;
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/sender-ids": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a team's sender IDs */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "sid_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "senderId": "Acme",
                         *         "country": "GB",
                         *         "status": "APPROVED",
                         *         "createdAt": "2026-01-15T09:30:00.000Z"
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            senderId: string;
                            country: string;
                            /** @enum {string} */
                            status: "APPROVED";
                            createdAt: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add an approved sender ID; its fee is charged to the wallet at once (402 when it cannot pay) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "senderId": "Acme",
                     *       "country": "GB"
                     *     }
                     */
                    "application/json": {
                        senderId: string;
                        country: string;
                        /**
                         * @description charged to the wallet at once
                         * @default 0
                         */
                        feeMinor?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "sid_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "senderId": "Acme",
                         *       "country": "GB",
                         *       "status": "APPROVED",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            senderId: string;
                            country: string;
                            /** @enum {string} */
                            status: "APPROVED";
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                402: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "INSUFFICIENT_BALANCE",
                         *         "message": "The wallet is empty: top it up first"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/sender-ids/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a sender ID; with refund, its fee goes back to the wallet */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "refund": false
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description give the fee back to the wallet
                         * @default false
                         */
                        refund?: boolean;
                    } | null;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "sid_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/inboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a team's inboxes */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "inbox_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "name": "Support",
                         *         "address": "ada@example.com",
                         *         "createdAt": "2026-01-15T09:30:00.000Z"
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            address: string;
                            createdAt: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add an inbox: mail to its address (and address+anything) is received for the team */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Support",
                     *       "address": "ada@example.com"
                     *     }
                     */
                    "application/json": {
                        name: string;
                        /**
                         * Format: email
                         * @description a full address on HERALD_MAIL_DOMAIN or on one of the team's verified sending domains
                         */
                        address: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "inbox_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "name": "Support",
                         *       "address": "ada@example.com",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: string;
                            name: string;
                            address: string;
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/inboxes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an inbox: its address is refused from then on; its messages stay readable */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "inbox_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/inbound/failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Inbound messages kept as failed (unreadable, or no attempt could take them), newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description an id: the failures older than it (paging) */
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "receivedAt": "2026-01-15T09:30:00.000Z",
                         *         "failedAt": "2026-01-15T09:30:00.000Z",
                         *         "mailFrom": "example",
                         *         "rcptTo": [
                         *           "example"
                         *         ],
                         *         "remoteAddress": "example",
                         *         "sizeBytes": 1,
                         *         "attempts": 1,
                         *         "error": null
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            receivedAt: string;
                            failedAt: string;
                            /** @description the envelope sender; '' for the null sender */
                            mailFrom: string;
                            rcptTo: string[];
                            remoteAddress: string;
                            sizeBytes: number;
                            attempts: number;
                            error: string | null;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/inbound/failed/{id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The original of a failed inbound message, exactly as received (message/rfc822) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a team */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Acme"
                     *     }
                     */
                    "application/json": {
                        name: string;
                        /**
                         * @description absent: HERALD_DEFAULT_PLAN (free unless the operator set it)
                         * @enum {string}
                         */
                        plan?: "free" | "pro";
                        /**
                         * @default USD
                         * @enum {string}
                         */
                        currency?: "USD" | "NGN" | "KES";
                        /** @default false */
                        smsEnabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "name": "Acme",
                         *       "plan": "free",
                         *       "currency": "USD",
                         *       "smsEnabled": true,
                         *       "apiRateLimit": 10,
                         *       "stripeCustomerId": "cus_Q1a2b3c4d5e6f7",
                         *       "billingMethod": "card",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: number;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro";
                            /** @enum {string} */
                            currency: "USD" | "NGN" | "KES";
                            smsEnabled: boolean;
                            apiRateLimit: number;
                            stripeCustomerId: string | null;
                            /** @enum {string} */
                            billingMethod: "card" | "wallet" | "none";
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a team */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "name": "Acme",
                         *       "plan": "free",
                         *       "currency": "USD",
                         *       "smsEnabled": true,
                         *       "apiRateLimit": 10,
                         *       "stripeCustomerId": "cus_Q1a2b3c4d5e6f7",
                         *       "billingMethod": "card",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: number;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro";
                            /** @enum {string} */
                            currency: "USD" | "NGN" | "KES";
                            smsEnabled: boolean;
                            apiRateLimit: number;
                            stripeCustomerId: string | null;
                            /** @enum {string} */
                            billingMethod: "card" | "wallet" | "none";
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a team */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "plan": "free",
                     *       "currency": "USD",
                     *       "smsEnabled": true,
                     *       "apiRateLimit": 10,
                     *       "stripeCustomerId": "cus_Q1a2b3c4d5e6f7",
                     *       "billingMethod": "card"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        plan?: "free" | "pro";
                        /** @enum {string} */
                        currency?: "USD" | "NGN" | "KES";
                        smsEnabled?: boolean;
                        /** @description requests per second for the team's keys */
                        apiRateLimit?: number;
                        stripeCustomerId?: string | null;
                        /**
                         * @description how the plan is paid; wallet on pro takes the first month from the wallet now (402 when it cannot pay)
                         * @enum {string}
                         */
                        billingMethod?: "card" | "wallet" | "none";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "name": "Acme",
                         *       "plan": "free",
                         *       "currency": "USD",
                         *       "smsEnabled": true,
                         *       "apiRateLimit": 10,
                         *       "stripeCustomerId": "cus_Q1a2b3c4d5e6f7",
                         *       "billingMethod": "card",
                         *       "createdAt": "2026-01-15T09:30:00.000Z"
                         *     }
                         */
                        "application/json": {
                            id: number;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro";
                            /** @enum {string} */
                            currency: "USD" | "NGN" | "KES";
                            smsEnabled: boolean;
                            apiRateLimit: number;
                            stripeCustomerId: string | null;
                            /** @enum {string} */
                            billingMethod: "card" | "wallet" | "none";
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a team's members */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": 1,
                         *         "email": "ada@example.com",
                         *         "name": "Acme",
                         *         "role": "OWNER"
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: number;
                            email: string;
                            name: string | null;
                            /** @enum {string} */
                            role: "OWNER" | "ADMIN" | "MEMBER";
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /** Add a member */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "email": "ada@example.com",
                     *       "role": "OWNER"
                     *     }
                     */
                    "application/json": {
                        /** Format: email */
                        email: string;
                        name?: string;
                        /** @enum {string} */
                        role: "OWNER" | "ADMIN" | "MEMBER";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "email": "ada@example.com",
                         *       "name": "Acme",
                         *       "role": "OWNER"
                         *     }
                         */
                        "application/json": {
                            id: number;
                            email: string;
                            name: string | null;
                            /** @enum {string} */
                            role: "OWNER" | "ADMIN" | "MEMBER";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_UNIQUE",
                         *         "message": "Idempotency-Key was already used with a different request"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/members/{memberId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a member's role */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                    memberId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "role": "OWNER"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        role: "OWNER" | "ADMIN" | "MEMBER";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": 1,
                         *       "email": "ada@example.com",
                         *       "name": "Acme",
                         *       "role": "OWNER"
                         *     }
                         */
                        "application/json": {
                            id: number;
                            email: string;
                            name: string | null;
                            /** @enum {string} */
                            role: "OWNER" | "ADMIN" | "MEMBER";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a team's API keys (never the keys themselves) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "key_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "kind": "full",
                         *         "name": "Acme",
                         *         "memberId": 3,
                         *         "domainId": 1,
                         *         "hint": "example",
                         *         "createdAt": "2026-01-15T09:30:00.000Z"
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            kind: "full" | "readonly" | "sending" | "sandbox" | "live_ai";
                            name: string | null;
                            memberId: number | null;
                            domainId: number | null;
                            hint: string;
                            createdAt: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create an API key (shown once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "kind": "full"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        kind: "full" | "readonly" | "sending" | "sandbox" | "live_ai";
                        name?: string;
                        /** @description the member who makes the key; absent: a key whose maker was never recorded */
                        memberId?: number;
                        /** @description limits the key to that domain */
                        domainId?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "key_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "kind": "full",
                         *       "key": "hk_4f9c2a7e1b8d3f6a0c5e9b2d7a1f4c8e",
                         *       "name": "Acme",
                         *       "memberId": 3,
                         *       "domainId": 1
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            kind: "full" | "readonly" | "sending" | "sandbox" | "live_ai";
                            /** @description the API key; shown only here */
                            key: string;
                            name: string | null;
                            memberId: number | null;
                            domainId: number | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/teams/{teamId}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an API key; it stops working at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    teamId: number;
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "id": "key_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *       "deleted": true
                         *     }
                         */
                        "application/json": {
                            id: string;
                            /** @enum {boolean} */
                            deleted: true;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List messages the log transport stored, newest first */
        get: {
            parameters: {
                query?: {
                    /** @description only this team's messages */
                    teamId?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example [
                         *       {
                         *         "id": "01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "teamId": 2,
                         *         "emailId": "em_01kf0m3q7r9t5v6w8y0z1a2b3c",
                         *         "envelope": {
                         *           "from": "Acme <hello@example.com>",
                         *           "to": [
                         *             "ada@example.com"
                         *           ]
                         *         },
                         *         "subject": "Welcome to Acme",
                         *         "createdAt": "2026-01-15T09:30:00.000Z",
                         *         "raw": "example"
                         *       }
                         *     ]
                         */
                        "application/json": {
                            id: string;
                            teamId: number | null;
                            emailId: string | null;
                            envelope: {
                                from: string;
                                to: string[];
                            };
                            subject: string | null;
                            createdAt: string;
                            /** @description the whole message as it would have been sent, DKIM signature included */
                            raw: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "BAD_REQUEST",
                         *         "message": "name: Invalid input: expected string, received number"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "UNAUTHORIZED",
                         *         "message": "API key is not valid"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": {
                         *         "code": "NOT_FOUND",
                         *         "message": "Not found"
                         *       }
                         *     }
                         */
                        "application/json": {
                            error: {
                                code: string;
                                message: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/sms/twilio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/sms/africastalking/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/sms/termii": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/stripe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "email.scheduled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.scheduled
         * @description a send was accepted for a later time. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.scheduled";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.queued": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.queued
         * @description a send was accepted and queued. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.queued";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.sent
         * @description a relay accepted the email (`HERALD_MAIL_TRANSPORT=smtp://…` or `log`). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.sent";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.delivery_delayed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.delivery_delayed
         * @description a temporary failure; Herald retries (or a delay report came back). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.delivery_delayed";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.bounced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.bounced
         * @description a permanent failure at sending, or a bounce report (DSN) that came back. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.bounced";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.rejected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.rejected
         * @description the email could not be sent: refused. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.rejected";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.rendering_failure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.rendering_failure
         * @description the email could not be sent: its content could not be built. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.rendering_failure";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.delivered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.delivered
         * @description a recipient's mail server accepted it (`direct` transport). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.delivered";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.opened": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.opened
         * @description the tracking pixel was fetched for the first time (once per email, or per recipient of a MARKETING email; later opens are counted in the data, not sent again). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.opened";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.clicked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.clicked
         * @description a tracked link was followed (every click). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.clicked";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.complained": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.complained
         * @description a recipient reported it as spam (ARF feedback report). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.complained";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.failed
         * @description the email could not be sent. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.failed";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.cancelled
         * @description a scheduled email was cancelled. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.cancelled";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.suppressed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.suppressed
         * @description recipients on the team's suppression list were skipped. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.suppressed";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["EmailEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "sms.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * sms.sent
         * @description an SMS message was accepted by the network. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "sms.sent";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["SmsEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "sms.delivered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * sms.delivered
         * @description an SMS message was confirmed by the provider's delivery report. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "sms.delivered";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["SmsEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "sms.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * sms.failed
         * @description an SMS message was not delivered after being sent; the charge stands. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "sms.failed";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["SmsEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "sms.rejected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * sms.rejected
         * @description an SMS message was refused before delivery; the charge was returned. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "sms.rejected";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["SmsEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "journey.run.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * journey.run.completed
         * @description a journey run finished its last step. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "journey.run.completed";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["JourneyRunEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "journey.run.exited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * journey.run.exited
         * @description a journey run left before its end (unsubscribed, contact deleted, journey archived, send failed, left the segment). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "journey.run.exited";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["JourneyRunEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.started
         * @description a campaign started: its recipients were taken and its first batch is due. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "campaign.started";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["CampaignEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.paused": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.paused
         * @description a campaign paused: by hand, or when the plan's send limit ran out (it goes on by itself then). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "campaign.paused";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["CampaignEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * campaign.sent
         * @description a campaign sent its last recipient their email. Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "campaign.sent";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["CampaignEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.received": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.received
         * @description a message arrived at one of the team's inboxes (every message, spam included, with its spamVerdict). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "email.received";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["InboundEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description `POST /v1/webhooks/{id}/test` (to that webhook only). Signed with Standard Webhooks headers (docs/webhooks.md).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @constant */
                        type: "webhook.test";
                        /** @description when the event happened (ISO 8601, UTC) */
                        createdAt: string;
                        data: components["schemas"]["TestEventData"];
                    };
                };
            };
            responses: {
                /** @description Delivered. Any other answer is a failed attempt, retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        EmailEventData: {
            /** @description the id returned when the email was sent */
            emailId: string;
            /** @description the sending domain; domainIds filters match on it */
            domainId: number | null;
            /** @description the campaign that sent it, or null */
            campaignId: string | null;
            /**
             * @description the email status this event records (upper case)
             * @enum {string}
             */
            status: "SCHEDULED" | "QUEUED" | "SENT" | "DELIVERY_DELAYED" | "BOUNCED" | "REJECTED" | "RENDERING_FAILURE" | "DELIVERED" | "OPENED" | "CLICKED" | "COMPLAINED" | "FAILED" | "CANCELLED" | "SUPPRESSED";
            from: string;
            to: string | string[];
            subject: string;
            /** @description when the email was sent (ISO 8601) */
            emailCreatedAt: string;
            /** @description what the event carries: the SMTP answer, the bounce diagnostic, the clicked link, ... */
            details: unknown | null;
        };
        SmsEventData: {
            id: string;
            /** @description the phone number masked to its last four digits */
            to: string;
            /** @enum {string} */
            status: "queued" | "sent" | "delivered" | "failed" | "rejected";
            segments: number;
            charge: {
                /** @enum {string} */
                currency: "USD" | "NGN" | "KES";
                /** @description decimal string in the wallet currency */
                amount: string;
            };
            /** @description set when status is failed or rejected; plain language, never a provider code */
            reason: {
                code: string;
                message: string;
            } | null;
            createdAt: string;
            updatedAt: string;
        };
        JourneyRunEventData: {
            runId: string;
            journeyId: string;
            contactId: string;
            /** @enum {string} */
            status: "COMPLETED" | "EXITED";
            /** @description why the run exited; null when completed, or when it left the segment (exitWhenLeavesSegment) */
            exitReason: ("UNSUBSCRIBED" | "JOURNEY_ARCHIVED" | "CONTACT_DELETED" | "SEND_FAILED" | "PROCESSING_ERROR") | null;
            currentStepIndex: number;
        };
        CampaignEventData: {
            campaignId: string;
            name: string;
            /** @enum {string} */
            status: "RUNNING" | "PAUSED" | "SENT";
            /** @description why it paused: by hand, or the plan's send limit */
            pausedReason: ("MANUAL" | "QUOTA") | null;
            /** @description recipients in the snapshot taken when it started */
            total: number;
            startedAt: string | null;
            finishedAt: string | null;
        };
        InboundEventData: {
            /** @description Herald's id of the received message: GET /v1/inbound/messages/{messageId} */
            messageId: string;
            conversationId: string;
            inbox: {
                id: string;
                name: string;
                address: string;
            };
            from: string;
            to: string[];
            cc: string[];
            subject: string;
            /** @description null when absent or longer than 32768 characters */
            text: string | null;
            /** @description null when absent or longer than 32768 characters */
            strippedText: string | null;
            attachments: {
                filename: string;
                contentType: string;
                size: number;
            }[];
            contactId: string | null;
            inReplyToEmailId: string | null;
            /** @enum {string} */
            spamVerdict: "clean" | "suspicious" | "spam";
            receivedAt: string;
            links: {
                /** @description the message in the API (needs a full access key) */
                message: string;
                /** @description the original .eml, while it is kept */
                raw: string;
            };
        };
        TestEventData: {
            webhookId: string;
            message: string;
        };
        /** @description The JSON body of every webhook call; `data` by type: EmailEventData: email.scheduled, email.queued, email.sent, email.delivery_delayed, email.bounced, email.rejected, email.rendering_failure, email.delivered, email.opened, email.clicked, email.complained, email.failed, email.cancelled, email.suppressed; SmsEventData: sms.sent, sms.delivered, sms.failed, sms.rejected; JourneyRunEventData: journey.run.completed, journey.run.exited; CampaignEventData: campaign.started, campaign.paused, campaign.sent; InboundEventData: email.received; TestEventData: webhook.test. */
        WebhookEventPayload: {
            /** @enum {string} */
            type: "email.scheduled" | "email.queued" | "email.sent" | "email.delivery_delayed" | "email.bounced" | "email.rejected" | "email.rendering_failure" | "email.delivered" | "email.opened" | "email.clicked" | "email.complained" | "email.failed" | "email.cancelled" | "email.suppressed" | "sms.sent" | "sms.delivered" | "sms.failed" | "sms.rejected" | "journey.run.completed" | "journey.run.exited" | "campaign.started" | "campaign.paused" | "campaign.sent" | "email.received" | "webhook.test";
            /** @description when the event happened (ISO 8601, UTC) */
            createdAt: string;
            data: components["schemas"]["EmailEventData"] | components["schemas"]["SmsEventData"] | components["schemas"]["JourneyRunEventData"] | components["schemas"]["CampaignEventData"] | components["schemas"]["InboundEventData"] | components["schemas"]["TestEventData"];
        };
        ApiKey: {
            id: string;
            /**
             * @description full (full access), readonly, sending (sending access), sandbox or live_ai: the contract key kinds
             * @enum {string}
             */
            kind: "full" | "readonly" | "sending" | "sandbox" | "live_ai";
            name: string | null;
            /** @description the domain the key is limited to; null: every domain */
            domainId: number | null;
            /** @description the member who made the key; null when made by the operator or the first start, or the member left */
            createdBy: number | null;
            /** @description the last four characters of the key, as hk_…abcd; never the key */
            hint: string;
            createdAt: string;
            /** @description when the key last called the API, to within two minutes; null: not used yet */
            lastUsedAt: string | null;
        };
        Receipt: {
            /** @description set on a Pro month paid from the wallet */
            invoiceNumber: string | null;
            reference: string;
            type: string;
            title: string;
            description: string;
            /** @description negative for money that left the wallet, positive for money that entered it */
            amountMinor: number;
            /** @description without sign */
            amountFormatted: string;
            /** @enum {string} */
            direction: "in" | "out";
            balanceAfterMinor: number;
            balanceAfterFormatted: string;
            currency: string;
            createdAt: string;
        };
        Invoice: {
            /** @description the card processor's own id, prefix in_ */
            id: string;
            number: string | null;
            createdAt: string;
            /** @description cents */
            amountDue: number;
            /** @description cents */
            amountPaid: number;
            currency: string;
            status: string | null;
        };
        AuditLogEntry: {
            id: string;
            key: {
                id: string | null;
                name: string | null;
                kind: string;
                /** @description the team member who made the key */
                memberId: number | null;
            };
            method: string;
            /** @description without the API prefix, e.g. /v1/billing/transactions */
            path: string;
            /** @description the query string as sent, empty when none */
            query: string;
            status: number;
            errorCode: string | null;
            /** @description the change the request made; null for a billing read */
            action: ("api_key.created" | "api_key.revoked" | "suppression.added" | "suppression.removed") | null;
            /** @description the API key id or the address changed; null for a billing read */
            target: string | null;
            createdAt: string;
        };
        BillingSubscription: {
            plan: string;
            isActive: boolean;
            /** @description card, wallet or none */
            billingMethod: string;
            /** @description the card subscription, from the card processor; null for a team not billed by card */
            stripe: {
                status: string;
                currentPeriodStart: string | null;
                currentPeriodEnd: string | null;
                cancelAtPeriodEnd: boolean;
                cancelAt: string | null;
            } | null;
            wallet: {
                /** @description none, active, grace or lapsed */
                state: string;
                proRenewsAt: string | null;
                graceStartedAt: string | null;
                graceEndsAt: string | null;
                unitsBlocked: boolean;
            };
            planPayment: {
                currency: string;
                priceMinor: number;
                priceFormatted: string;
                priceConfigured: boolean;
                /** @description true for NGN and KES */
                fixedPrice: boolean;
                walletPaysPlan: boolean;
                /** @description the Pro month the team is on, owes or is paying */
                live: {
                    /** @description paid, grace or lapsed */
                    status: string;
                    /** @description wallet */
                    paidVia: string;
                    periodStart: string;
                    periodEnd: string;
                    amountMinor: number;
                    amountFormatted: string;
                    cancelAtPeriodEnd: boolean;
                    graceEndsAt: string | null;
                    invoiceNumber: string | null;
                    receiptReference: string | null;
                } | null;
            };
        };
        BillingUsage: {
            period: {
                startDay: string;
                endDay: string | null;
                label: string;
            };
            plan: {
                key: string;
                /** @description the plan the limits are enforced against today */
                effectiveKey: string;
                displayName: string;
                monthlyUsd: number;
                status: string | null;
                isEntitled: boolean;
            };
            emails: {
                marketingThisMonth: number;
                transactionalThisMonth: number;
                totalThisMonth: number;
                totalToday: number;
            };
            sending: {
                monthly: {
                    used: number;
                    /** @description -1 means no limit */
                    limit: number;
                    unlimited: boolean;
                    percentUsed: number;
                };
                daily: {
                    used: number;
                    /** @description -1 means no limit */
                    limit: number;
                    unlimited: boolean;
                    percentUsed: number;
                };
            };
            units: {
                included: number;
                used: number;
                overage: number;
                overageUsd: number;
                overageMinor: number;
                overageFormatted: string;
                unitPriceFormatted: string | null;
                note: string;
            } | null;
            billing: {
                method: string;
                currency: string;
                unitPriceMicro: number | null;
            };
            resources: {
                domains: {
                    used: number;
                    /** @description -1 means no limit */
                    limit: number;
                    unlimited: boolean;
                    percentUsed: number;
                };
                contactBooks: {
                    used: number;
                    /** @description -1 means no limit */
                    limit: number;
                    unlimited: boolean;
                    percentUsed: number;
                };
                teamMembers: {
                    used: number;
                    /** @description -1 means no limit */
                    limit: number;
                    unlimited: boolean;
                    percentUsed: number;
                };
                webhooks: {
                    used: number;
                    /** @description -1 means no limit */
                    limit: number;
                    unlimited: boolean;
                    percentUsed: number;
                };
            };
            /** @description requests per second the team keys may make */
            apiRateLimit: number;
            thisMonth: {
                emails: {
                    used: number;
                    limit: number;
                    unlimited: boolean;
                    percent: number;
                };
                texts: number;
                codes: number;
                /** @description only for a key made by a team admin and not limited to one domain */
                textSpendFormatted: string | null;
            };
        };
        BillingPriceList: {
            currency: string;
            channels: {
                channel: string;
                label: string;
                tiers: {
                    id: string;
                    position: number;
                    name: string;
                    minVolume: number;
                    maxVolume: number | null;
                    recommended: boolean;
                    volumeLabel: string;
                }[];
                lines: {
                    productLine: string;
                    label: string;
                    monthlyFee: boolean;
                    cells: ({
                        tierId: string;
                        /** @description millionths of the major unit; null: on request */
                        priceMicro: number | null;
                        priceFormatted: string | null;
                    } | null)[];
                }[];
            }[];
            pro: {
                currency: string;
                monthlyMinor: number | null;
                monthlyFormatted: string | null;
                unitPriceMicro: number | null;
                fixedPrice: boolean;
                /** @description false when the currency is not priced yet */
                configured: boolean;
            };
        };
        Suppression: {
            email: string;
            /** @description HARD_BOUNCE, COMPLAINT or MANUAL */
            reason: string;
            /** @description the email whose bounce or complaint added the address */
            emailId: string | null;
            createdAt: string;
        };
        SmsMessage: {
            id: string;
            /** @description masked to the last four digits */
            to: string;
            /** @enum {string} */
            status: "queued" | "sent" | "delivered" | "failed" | "rejected";
            segments: number;
            charge: {
                /** @enum {string} */
                currency: "USD" | "NGN" | "KES";
                /** @description decimal string in the wallet currency, e.g. "0.05" */
                amount: string;
            };
            reason: {
                code: string;
                message: string;
            } | null;
            createdAt: string;
            updatedAt: string;
        };
        InboundMessage: {
            /** @description Herald's id of the received message (not the Message-ID header) */
            messageId: string;
            /** @description one per thread: from In-Reply-To/References, else the messageId of its first message */
            conversationId: string;
            inbox: {
                id: string;
                name: string;
            };
            from: string;
            to: string[];
            cc: string[];
            subject: string;
            text: string | null;
            /** @description sanitized: no scripts, forms, frames or event handlers; remote images moved to data-remote-src */
            html: string | null;
            /** @description the new part, without quoted history and signature */
            strippedText: string | null;
            attachments: {
                filename: string;
                contentType: string;
                size: number;
                /** @description signed link, valid 24 hours */
                url: string;
            }[];
            contactId: string | null;
            inReplyToEmailId: string | null;
            /**
             * @description clean, suspicious, or spam (kept and readable by id, left out of the list)
             * @enum {string}
             */
            spamVerdict: "clean" | "suspicious" | "spam";
            receivedAt: string;
        };
        Webhook: {
            id: string;
            url: string;
            description: string | null;
            /** @enum {string} */
            status: "ACTIVE" | "PAUSED" | "AUTO_DISABLED";
            eventTypes: string[];
            domainIds: number[];
            apiVersion: string | null;
            consecutiveFailures: number;
            lastFailureAt: string | null;
            lastSuccessAt: string | null;
            /** @description the signing secret, masked */
            secretHint: string;
            createdAt: string;
            updatedAt: string;
            /** @description the signing secret (whsec_…); only in the create and rotate-secret responses */
            secret?: string;
            /** @description only in the list response */
            last24h?: {
                /** @description calls delivered */
                ok: number;
                /** @description attempts beyond each call's first */
                retried: number;
                /** @description calls that ran out of attempts or were dropped */
                failed: number;
            };
        };
        WebhookCall: {
            /** @description also the webhook-id header of every attempt */
            id: string;
            webhookId: string;
            type: string;
            /** @enum {string} */
            status: "PENDING" | "IN_PROGRESS" | "DELIVERED" | "FAILED" | "DISCARDED";
            /** @description attempts made so far */
            attempt: number;
            nextAttemptAt: string | null;
            lastError: string | null;
            responseStatus: number | null;
            responseTimeMs: number | null;
            createdAt: string;
            updatedAt: string;
        };
        WebhookCallDetail: {
            /** @description also the webhook-id header of every attempt */
            id: string;
            webhookId: string;
            type: string;
            /** @enum {string} */
            status: "PENDING" | "IN_PROGRESS" | "DELIVERED" | "FAILED" | "DISCARDED";
            /** @description attempts made so far */
            attempt: number;
            nextAttemptAt: string | null;
            lastError: string | null;
            responseStatus: number | null;
            responseTimeMs: number | null;
            createdAt: string;
            updatedAt: string;
            apiVersion: string | null;
            /** @description the request body as sent: the event as JSON text (see WebhookEventPayload) */
            payload: string;
            /** @description first 2 KB of the endpoint's response body */
            responseText: string | null;
        };
        Verification: {
            id: string;
            to: string;
            /** @enum {string} */
            status: "pending" | "verified" | "expired" | "failed" | "refused";
            expiresAt: string;
            attemptsRemaining: number;
            emailId: string | null;
            /** @enum {string} */
            channel: "email" | "sms";
            providerMessageId: string | null;
            deliveryStatus: ("queued" | "sent" | "delivered" | "failed" | "rejected") | null;
            deliveryReason: string | null;
            risk: {
                /** @description summed signal weights, capped at 100 */
                score: number;
                /** @enum {string} */
                level: "LOW" | "MEDIUM" | "HIGH";
                reasons: {
                    code: string;
                    detail: string;
                }[];
            };
            verified: boolean;
            /** @enum {string} */
            reason?: "wrong_code" | "expired" | "already_used" | "too_many_attempts" | "refused";
            createdAt: string;
        };
        Journey: {
            id: string;
            name: string;
            /** @enum {string} */
            status: "DRAFT" | "PENDING_REVIEW" | "ACTIVE" | "PAUSED" | "ARCHIVED";
            /** @enum {string} */
            triggerType: "CONTACT_ADDED" | "API";
            contactBookId: string | null;
            segmentId: string | null;
            exitWhenLeavesSegment: boolean;
            steps: ({
                /** @description unique in the journey, 1 to 64 characters */
                id: string;
                /** @constant */
                type: "EMAIL";
                /** @description a template of the team; its html is the email's body */
                templateId: string;
                /** @description `address` or `Name <address>`, on a verified sending domain of the team */
                from: string;
                /** @description overrides the template's subject; may use the contact's variables */
                subject?: string;
            } | {
                /** @description unique in the journey, 1 to 64 characters */
                id: string;
                /** @constant */
                type: "WAIT";
                /** @description 1 to 31536000 (365 days) */
                seconds: number;
            })[];
            stats: {
                enrolled: number;
                active: number;
                completed: number;
                exited: number;
                failed: number;
                /** @description emails sent per EMAIL step id */
                sentByStep: {
                    [key: string]: number;
                };
            };
            createdAt: string;
            updatedAt: string;
        };
        JourneyRun: {
            id: string;
            journeyId: string;
            contactId: string;
            /** @enum {string} */
            status: "ACTIVE" | "COMPLETED" | "EXITED" | "FAILED";
            currentStepIndex: number;
            nextRunAt: string;
            exitReason: ("UNSUBSCRIBED" | "JOURNEY_ARCHIVED" | "CONTACT_DELETED" | "SEND_FAILED" | "PROCESSING_ERROR") | null;
            /** @description what the run did, oldest first (Herald's addition) */
            history: {
                at: string;
                /** @description EMAIL, WAIT, COMPLETED, EXITED, FAILED */
                type: string;
                stepId?: string;
                emailId?: string;
                until?: string;
                note?: string;
            }[];
            createdAt: string;
            updatedAt: string;
        };
        Campaign: {
            id: string;
            name: string;
            from: string;
            subject: string;
            createdAt: string;
            updatedAt: string;
            /** @enum {string} */
            status: "DRAFT" | "SCHEDULED" | "RUNNING" | "PAUSED" | "SENT";
            scheduledAt: string | null;
            total: number;
            sent: number;
            delivered: number;
            unsubscribed: number;
            previewText: string | null;
            contactBookId: string;
            segmentId: string | null;
            templateId: string | null;
            html: string | null;
            content: string | null;
            batchSize: number;
            batchWindowMinutes: number;
            opened: number;
            clicked: number;
            bounced: number;
            hardBounced: number;
            complained: number;
            replyTo: string[];
            cc: string[];
            bcc: string[];
            pausedReason: ("MANUAL" | "QUOTA") | null;
            startedAt: string | null;
            finishedAt: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
