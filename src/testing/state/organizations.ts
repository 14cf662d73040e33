import { ConfigurationError } from "../../errors/configuration-error.js";
import { numericIds, Store, timestamp, type Dated, type Entity } from "./store.js";

export type OrgRole = "owner" | "member" | "collaborator";
export type Visibility = "PRIVATE" | "SHARED";

export interface Organization extends Entity<number> {
  name: string;
  fullName: string;
  description?: string;
  location?: string;
  website?: string;
}

export interface OrganizationInit extends Dated {
  id?: number;
  name: string;
  /** Default: the name. */
  fullName?: string;
  description?: string;
  location?: string;
  website?: string;
}

export interface Workspace extends Entity<number> {
  orgId: number;
  name: string;
  fullName: string;
  description?: string;
  visibility: Visibility;
}

export interface WorkspaceInit extends Dated {
  id?: number;
  /** The organization, by name or id; an unknown name creates it. */
  org: string | number;
  /** 2 to 40 letters, digits, `-` or `_`, as the service requires. */
  name: string;
  fullName?: string;
  description?: string;
  /** Default "PRIVATE". */
  visibility?: Visibility;
}

/** A user who belongs to an organization; the emulator's own user is added as owner. */
export interface Member extends Entity<number> {
  orgId: number;
  userId: number;
  userName: string;
  email: string;
  firstName?: string;
  lastName?: string;
  role: OrgRole;
}

export interface MemberInit extends Dated {
  id?: number;
  /** The organization, by name or id. */
  org: string | number;
  userName: string;
  /** Default `<userName>@example.com`. */
  email?: string;
  firstName?: string;
  lastName?: string;
  /** Default "member". */
  role?: OrgRole;
  userId?: number;
}

/** The user the emulator's tokens belong to. */
export interface User {
  id: number;
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  dateCreated: string;
}

/** The service's rule for organization and workspace names. */
const NAME = /^[a-zA-Z\d](?:[a-zA-Z\d]|[-_](?=[a-zA-Z\d])){1,38}$/;

function checkName(kind: string, name: string): void {
  if (!NAME.test(name)) {
    throw new ConfigurationError(
      `${kind} name "${name}": 2 to 40 letters, digits, - or _, as the service requires`,
    );
  }
}

export class OrganizationStore extends Store<Organization> {
  constructor(private readonly onCreate: (org: Organization) => void) {
    super(numericIds(1000));
  }

  /** Adds an organization; the emulator's user becomes its owner. */
  add(init: OrganizationInit): Organization {
    checkName("Organization", init.name);
    if (this.byName(init.name, undefined))
      throw new ConfigurationError(`Organization ${init.name} exists`);
    const dateCreated = timestamp(init.dateCreated);
    const org = this.insert({
      id: init.id ?? this.newId(),
      name: init.name,
      fullName: init.fullName ?? init.name,
      ...(init.description !== undefined && { description: init.description }),
      ...(init.location !== undefined && { location: init.location }),
      ...(init.website !== undefined && { website: init.website }),
      dateCreated,
      lastUpdated: timestamp(init.lastUpdated, dateCreated),
    });
    this.onCreate(org);
    return org;
  }
}

export class WorkspaceStore extends Store<Workspace> {
  constructor(private readonly orgOf: (ref: string | number) => Organization) {
    super(numericIds(10_000));
  }

  add(init: WorkspaceInit): Workspace {
    checkName("Workspace", init.name);
    const org = this.orgOf(init.org);
    if (this.inOrg(org.id).some((w) => w.name === init.name)) {
      throw new ConfigurationError(`Workspace ${org.name}/${init.name} exists`);
    }
    const dateCreated = timestamp(init.dateCreated);
    return this.insert({
      id: init.id ?? this.newId(),
      orgId: org.id,
      name: init.name,
      fullName: init.fullName ?? init.name,
      ...(init.description !== undefined && { description: init.description }),
      visibility: init.visibility ?? "PRIVATE",
      dateCreated,
      lastUpdated: timestamp(init.lastUpdated, dateCreated),
    });
  }

  inOrg(orgId: number): Workspace[] {
    return this.all().filter((w) => w.orgId === orgId);
  }
}

export class MemberStore extends Store<Member> {
  readonly #userIds = numericIds(100);

  constructor(private readonly orgOf: (ref: string | number) => Organization) {
    super(numericIds(500));
  }

  add(init: MemberInit): Member {
    const org = this.orgOf(init.org);
    const dateCreated = timestamp(init.dateCreated);
    return this.insert({
      id: init.id ?? this.newId(),
      orgId: org.id,
      userId: init.userId ?? this.#userIds((id) => this.all().some((m) => m.userId === id)),
      userName: init.userName,
      email: init.email ?? `${init.userName}@example.com`,
      ...(init.firstName !== undefined && { firstName: init.firstName }),
      ...(init.lastName !== undefined && { lastName: init.lastName }),
      role: init.role ?? "member",
      dateCreated,
      lastUpdated: timestamp(init.lastUpdated, dateCreated),
    });
  }

  inOrg(orgId: number): Member[] {
    return this.all().filter((m) => m.orgId === orgId);
  }

  /** The organization's member with this user name or e-mail, compared in any case. */
  find(orgId: number, userNameOrEmail: string): Member | undefined {
    const wanted = userNameOrEmail.toLowerCase();
    return this.inOrg(orgId).find(
      (m) => m.userName.toLowerCase() === wanted || m.email.toLowerCase() === wanted,
    );
  }
}
