import { Module } from '@nestjs/common';
import { SignupsModule } from './signups/signups.module.js';

@Module({ imports: [SignupsModule] })
export class SignupsServiceModule {}
