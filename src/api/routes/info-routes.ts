import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { QueryCapacityService } from '../../services/index.js';
import { tenantOf } from '../auth.js';
import { TenantOnlyQuery, errorResponses } from '../schemas.js';

const gb = (description: string) => Type.Number({ description });

const QueryCapacityResponse = Type.Object({
  this_month_used_query_capacity_gb: gb('Bytes scanned by ad hoc queries this UTC month, in decimal GB'),
  this_month_provisioned_query_capacity_gb: gb('Always 0: Vigil provisions no capacity'),
  this_month_on_demand_query_capacity_gb: gb('The whole use (nothing is provisioned)'),
  number_of_days_this_month: Type.Integer(),
  contract_provisioned_query_capacity_gb_per_day: gb('Always 0'),
});

/** `/v1/info` (docs/compatibility.md): what the published product reports about a tenant's use. */
export function registerInfoRoutes(app: FastifyInstance, capacity: QueryCapacityService): void {
  app.get<{ Querystring: { tenant_id?: string } }>(
    '/v1/info/query_capacity',
    {
      schema: {
        summary: "The tenant's query use this month",
        tags: ['info'],
        querystring: TenantOnlyQuery,
        response: { 200: QueryCapacityResponse, ...errorResponses },
      },
    },
    async (request) => capacity.capacity(tenantOf(request, request.query.tenant_id)),
  );
}
