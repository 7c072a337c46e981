/** What the code of a guide is filled with: this API and the tenant's issuer (from its OpenID configuration). */
export type GuideValues = {
  indicator: string;
  issuer: string;
  jwksUri: string;
  tokenEndpoint: string;
  /** A permission the example route requires: one of the resource's own when it has any. */
  permission: string;
};

export type Guide = {
  id: string;
  /** A product name ('Node.js · Express'), the same in every language. */
  name: string;
  install: string;
  code: (values: GuideValues) => string;
};

/** A string literal of the guide's language for a value (JSON's quoting is valid JavaScript, Python and Go). */
const quote = (value: string) => JSON.stringify(value);

const express: Guide = {
  id: 'express',
  name: 'Node.js · Express',
  install: 'npm install express jose',
  code: (values) => `import express from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';

const issuer = ${quote(values.issuer)};
const audience = ${quote(values.indicator)};
// Fetched on first use and cached; refetched when a token names a key it does not know.
const jwks = createRemoteJWKSet(new URL(${quote(values.jwksUri)}));

export function requirePermissions(...permissions) {
  return async (req, res, next) => {
    const [scheme, token] = (req.get('authorization') ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) {
      return res.status(401).set('WWW-Authenticate', 'Bearer').json({ error: 'invalid_token' });
    }
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer,
        audience,
        algorithms: ['RS256'],
        typ: 'at+jwt',
      });
      const granted = new Set(String(payload.scope ?? '').split(' '));
      if (!permissions.every((permission) => granted.has(permission))) {
        return res.status(403).set('WWW-Authenticate', 'Bearer error="insufficient_scope"').json({ error: 'insufficient_scope' });
      }
      req.auth = payload;
      next();
    } catch {
      res.status(401).set('WWW-Authenticate', 'Bearer error="invalid_token"').json({ error: 'invalid_token' });
    }
  };
}

const app = express();
app.get('/example', requirePermissions(${quote(values.permission)}), (req, res) => {
  res.json({ subject: req.auth.sub ?? req.auth.client_id });
});
app.listen(3000);
`,
};

const python: Guide = {
  id: 'python',
  name: 'Python · Flask + PyJWT',
  install: 'pip install flask "pyjwt[crypto]"',
  code: (values) => `from functools import wraps

import jwt
from flask import Flask, g, jsonify, request

ISSUER = ${quote(values.issuer)}
AUDIENCE = ${quote(values.indicator)}
# Fetches the signing keys on first use and caches them.
jwks_client = jwt.PyJWKClient(${quote(values.jwksUri)})


def require_permissions(*permissions):
    def decorator(view):
        @wraps(view)
        def wrapper(*args, **kwargs):
            scheme, _, token = request.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not token:
                return jsonify(error="invalid_token"), 401, {"WWW-Authenticate": "Bearer"}
            try:
                key = jwks_client.get_signing_key_from_jwt(token).key
                claims = jwt.decode(
                    token,
                    key,
                    algorithms=["RS256"],
                    audience=AUDIENCE,
                    issuer=ISSUER,
                    options={"require": ["exp", "iat"]},
                )
            except jwt.PyJWTError:
                return jsonify(error="invalid_token"), 401, {"WWW-Authenticate": 'Bearer error="invalid_token"'}
            granted = set(claims.get("scope", "").split())
            if not set(permissions) <= granted:
                return jsonify(error="insufficient_scope"), 403, {"WWW-Authenticate": 'Bearer error="insufficient_scope"'}
            g.auth = claims
            return view(*args, **kwargs)

        return wrapper

    return decorator


app = Flask(__name__)


@app.get("/example")
@require_permissions(${quote(values.permission)})
def example():
    return jsonify(subject=g.auth.get("sub") or g.auth.get("client_id"))
`,
};

const go: Guide = {
  id: 'go',
  name: 'Go · net/http',
  install: 'go get github.com/golang-jwt/jwt/v5 github.com/MicahParks/keyfunc/v3',
  code: (values) => `package main

import (
	"context"
	"encoding/json"
	"log"
	"net/http"
	"slices"
	"strings"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
)

const (
	issuer   = ${quote(values.issuer)}
	audience = ${quote(values.indicator)}
	jwksURI  = ${quote(values.jwksUri)}
)

func requirePermission(jwks keyfunc.Keyfunc, permission string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" {
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "invalid_token", http.StatusUnauthorized)
			return
		}
		claims := jwt.MapClaims{}
		_, err := jwt.ParseWithClaims(token, claims, jwks.Keyfunc,
			jwt.WithIssuer(issuer),
			jwt.WithAudience(audience),
			jwt.WithValidMethods([]string{"RS256"}),
			jwt.WithExpirationRequired(),
		)
		if err != nil {
			w.Header().Set("WWW-Authenticate", \`Bearer error="invalid_token"\`)
			http.Error(w, "invalid_token", http.StatusUnauthorized)
			return
		}
		scope, _ := claims["scope"].(string)
		if !slices.Contains(strings.Fields(scope), permission) {
			w.Header().Set("WWW-Authenticate", \`Bearer error="insufficient_scope"\`)
			http.Error(w, "insufficient_scope", http.StatusForbidden)
			return
		}
		next(w, r)
	}
}

func main() {
	// Fetches the signing keys now and refreshes them in the background.
	jwks, err := keyfunc.NewDefaultCtx(context.Background(), []string{jwksURI})
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("GET /example", requirePermission(jwks, ${quote(values.permission)}, func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"status": "ok"})
	}))
	log.Fatal(http.ListenAndServe(":3000", nil))
}
`,
};

/** The guides offered for protecting an API with one of its resources, in the order shown. */
export const guides: readonly Guide[] = [express, python, go];
export const defaultGuideId = express.id;

export function findGuide(id: string | undefined): Guide | undefined {
  return guides.find((guide) => guide.id === id);
}

/** A single-quoted shell word: nothing inside is expanded ($, backticks), and a quote is closed and escaped. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Step 'try it': a token from client credentials (RFC 8707 resource), then a call to the protected route. */
export function tryItCommands(values: GuideValues): string {
  return `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" \\
  -d grant_type=client_credentials \\
  --data-urlencode ${shellQuote(`resource=${values.indicator}`)} \\
  --data-urlencode ${shellQuote(`scope=${values.permission}`)} \\
  ${shellQuote(values.tokenEndpoint)}

curl -H "Authorization: Bearer $ACCESS_TOKEN" http://localhost:3000/example
`;
}

/** The permission the examples require when the resource has none yet. */
export const examplePermission = 'read:example';
