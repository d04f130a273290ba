// Turns "an identity someone else verified" into "a Rhizome session for tenant X": the
// consent/sign-in step shared by identity-provider sign-in and the MCP authorization server.
// Matching is by verified email against users made with `rhizome users add`; optionally,
// unknown users of allow-listed domains are signed up (into RHIZOME_OIDC_SIGNUP_TENANT, or
// each into a tenant of their own).
import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { UnauthorizedError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { UsersRepo } from '../../repos/users.repo.js';
import type { AuthService, TokenPair } from './auth.service.js';
import type { TenantsService } from './tenants.service.js';

export interface VerifiedIdentity {
  /** Who vouches for it, e.g. the provider name. */
  source: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  /** Email domains whose unknown users may be signed up automatically (empty: none). */
  allowedDomains: readonly string[];
}

export interface SignedInUser {
  tenantId: string;
  userId: string;
  email: string;
  signedUp: boolean;
}

/** One message for "no such user" and "domain not allowed": nothing tells which users exist. */
export const NOT_ALLOWED =
  'This account may not sign in to Rhizome. Ask the administrator to add your email address (rhizome users add).';
export const UNVERIFIED = 'Your identity provider has not verified your email address, so Rhizome cannot sign you in with it.';

export interface IdentitySignInDeps {
  tx: UnitOfWork;
  users: UsersRepo;
  tenants: TenantsService;
  auth: AuthService;
  clock: Clock;
  log: Logger;
  signupTenant: string | undefined;
}

export class IdentitySignIn {
  constructor(private readonly d: IdentitySignInDeps) {}

  /** The Rhizome user this identity is; throws 401 (and changes nothing) when refused. */
  async resolve(id: VerifiedIdentity): Promise<SignedInUser> {
    const email = id.email?.trim();
    if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw this.refuse(id, 'the provider gave no email address', UNVERIFIED);
    // Only a literal `true` counts: providers send "true" strings or omit the claim.
    if (!id.emailVerified) throw this.refuse(id, 'email not verified by the provider', UNVERIFIED);
    const user = await this.d.users.findByEmail(email);
    if (user) return { tenantId: user.tenant_id, userId: user.id, email: user.email, signedUp: false };
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (!id.allowedDomains.includes(domain)) throw this.refuse(id, `no such user, and ${domain} is not a domain allowed to sign up`, NOT_ALLOWED);
    return this.signUp(email, id.source);
  }

  /**
   * One info line per refusal, so an operator can see why someone cannot sign in: who (the
   * provider, its subject, the email it gave) and why. Never a token or a code.
   */
  private refuse(id: VerifiedIdentity, reason: string, message: string): UnauthorizedError {
    const email = id.email?.trim() ? JSON.stringify(id.email.trim().slice(0, 320)) : '(none)';
    this.d.log.info(`sign-in through ${id.source} refused: ${reason} (email ${email}, subject ${JSON.stringify(id.subject.slice(0, 200))})`);
    return new UnauthorizedError(message);
  }

  /** resolve(), then a fresh 15-minute access / 30-day refresh session. */
  async signIn(id: VerifiedIdentity): Promise<{ user: SignedInUser; tokens: TokenPair }> {
    const user = await this.resolve(id);
    return { user, tokens: await this.d.auth.startSession(user.tenantId, user.userId) };
  }

  private async signUp(email: string, source: string): Promise<SignedInUser> {
    return await this.d.tx.withTx(async () => {
      let tenantName = this.d.signupTenant;
      if (tenantName) {
        if (!await this.d.tenants.findByName(tenantName)) await this.d.tenants.create(tenantName);
      } else {
        tenantName = await this.ownTenantName(email);
        await this.d.tenants.create(tenantName);
      }
      const row = await this.d.auth.addUser(email, tenantName);
      this.d.log.info(`signed up ${email} through ${source} into tenant ${tenantName}`);
      return { tenantId: row.tenant_id, userId: row.id, email, signedUp: true };
    });
  }

  /** "ada-example-org", made unique with a counter when taken. */
  private async ownTenantName(email: string): Promise<string> {
    const base = email.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 56) || 'user';
    for (let i = 1; ; i++) {
      const name = i === 1 ? base : `${base}-${i}`;
      if (!await this.d.tenants.findByName(name)) return name;
    }
  }
}
