// Argument shapes the tool files share.
import { z } from 'zod';

export const id = z.string().min(1).max(100);
export const ids = z.array(id).max(50);
export const tags = z.array(z.string().trim().min(1).max(100)).max(100);
