import type { TierSurcharges } from './turnaround';

export interface JobTypeView {
  id: string;
  name: string;
  description: string | null;
  pricePerPhotoCents: number;
  defaultEditorPriceCents: number;
  /** Added per photo to Express and Rush orders (Standard adds nothing). */
  tierSurchargeCents: TierSurcharges;
  isActive: boolean;
  createdAt: string;
}
