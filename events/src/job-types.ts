export interface JobTypeView {
  id: string;
  name: string;
  description: string | null;
  pricePerPhotoCents: number;
  defaultEditorPriceCents: number;
  isActive: boolean;
  createdAt: string;
}
