import { z } from 'zod';

export const dataSourceItem = z.object({
  type: z.string(),
  isOpen: z.boolean(),
  text: z.string(),
  value: z.string(),
  icon: z.string(),
});
export type DataSourceItem = z.infer<typeof dataSourceItem>;

export const dataSourceList = z.object({
  list: z.array(dataSourceItem),
  selected: z.string().nullable(),
});
export type DataSourceList = z.infer<typeof dataSourceList>;

export const dataSourceSelectBody = z.strictObject({
  type: z.string().trim().min(1).max(32),
});
export type DataSourceSelectBody = z.infer<typeof dataSourceSelectBody>;
