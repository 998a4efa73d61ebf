import type { INestApplicationContext } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { type AuthRequirement, authRequirementOf, operationOf } from './auth.decorator.js';

export interface DeclaredRoute {
  controller: string;
  controllerClass: new (...args: never[]) => object;
  handler: string;
  path: string;
  requirement: AuthRequirement | undefined;
  /** The bus operation the route serves, if it serves one. */
  operation: string | undefined;
}

/** Every HTTP route of an app with what it declares about its caller. */
export function walkRoutes(app: INestApplicationContext): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        routes.push({
          controller: controller.name,
          controllerClass: controller,
          handler: name,
          path: `${base}/${String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')}`,
          requirement: authRequirementOf(handler, controller),
          operation: operationOf(handler),
        });
      }
    }
  }
  return routes;
}

/** Routes that declare no requirement: each is a defect. */
export function undeclaredRoutes(app: INestApplicationContext): string[] {
  return walkRoutes(app)
    .filter((r) => r.requirement === undefined)
    .map((r) => `${r.controller}.${r.handler} (${r.path})`);
}
